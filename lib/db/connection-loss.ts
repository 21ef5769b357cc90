import { AppError } from "../errors";

/**
 * SQLSTATEs that say "this server or connection is gone or cannot take the statement now", not
 * "your statement is wrong" (issue 46). Class 08 is connection_exception; 57P01..57P03 are a
 * terminated backend (pg_terminate_backend, a fast shutdown), a crash shutdown and a server still
 * starting or in recovery; 25006 is a write sent to a node that is, since a failover, a replica.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "25006", "53300"]);
/** Socket errors of node itself, met while connecting or on a connection the server dropped. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** What `pg` says, without a code, when the socket closed under it (or a client broken before). */
const PG_CLIENT_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error",
  "Client was closed and is not queryable",
  "timeout exceeded when trying to connect",
  "Connection ended unexpectedly"
];

/** How long a client should wait before trying again: a Patroni failover elects a new primary within seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** True when `err` says the database could not be reached or lost the connection, not that the SQL was refused. */
export function isConnectionLoss(err: unknown): boolean {
  if (err === null || typeof err !== "object" || err instanceof AppError) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (code.startsWith("08") || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
  return typeof message === "string" && PG_CLIENT_MESSAGES.some(m => message.startsWith(m));
}

/**
 * A lost database connection as the request in progress sees it: 503 UNAVAILABLE with a
 * Retry-After, never a 500. The outcome of a transaction whose COMMIT was cut off is unknown
 * here; a retry is settled by what already exists (Idempotency-Key, debits idempotent by parcel
 * id, the sweeper), never guessed. Any other error goes through unchanged.
 */
export function asUnavailable(err: unknown): unknown {
  if (!isConnectionLoss(err)) return err;
  const unavailable = new AppError("UNAVAILABLE", "The database is temporarily unavailable, please retry", {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS
  });
  madeHere.add(unavailable);
  return unavailable;
}

/** The 503s made of a lost connection, so that a transaction knows its connection is broken though the error was already turned. */
const madeHere = new WeakSet<object>();

/** A lost connection, as the driver said it or as asUnavailable turned it. */
export function wasConnectionLost(err: unknown): boolean {
  return isConnectionLoss(err) || (typeof err === "object" && err !== null && madeHere.has(err));
}
