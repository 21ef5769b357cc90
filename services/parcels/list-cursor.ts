/**
 * Issue 48: the list's cursor. It names the last parcel of a page by its place in the list order,
 * its creation instant (to the microsecond, as PostgreSQL keeps it: a JavaScript date would lose
 * the last three digits and skip or repeat a parcel) and its id; the next page starts right after
 * it on the list indexes, at the same cost at any depth. Opaque to the partner (base64url), and
 * naming no organisation: the list is always read within the key's.
 */

export interface ListPosition {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, PostgreSQL's instant to the microsecond. */
  createdAt: string;
  id: string;
}

const POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** A position is 64 characters, 86 in base64url. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{86}$/;

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(`${position.createdAt}_${position.id}`, "utf8").toString("base64url");
}

/** The position a cursor names, or null when it is not one this API gave. */
export function decodeCursor(cursor: string): ListPosition | null {
  if (!CURSOR_PATTERN.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match || Number.isNaN(Date.parse(match[1]))) return null;
  return { createdAt: match[1], id: match[2] };
}

/** The SQL that renders a row's creation instant as a position's `createdAt`. */
export const POSITION_AT_SQL = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
