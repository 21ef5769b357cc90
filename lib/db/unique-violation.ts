const UNIQUE_VIOLATION = "23505";

/** A statement failed on a unique index (PostgreSQL and PGlite both say 23505), this one when named. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== UNIQUE_VIOLATION) return false;
  return !constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
}
