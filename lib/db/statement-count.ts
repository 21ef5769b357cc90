/**
 * Statements this process has sent to its database (issue 31: round trips per create in the bench).
 * One number for the whole process, bumped by lib/db/postgres.ts and pglite.ts: every `query`, every
 * `exec` (one simple-protocol message, however many statements its text holds) and the BEGIN and
 * COMMIT/ROLLBACK around each transaction. Each is one request and one wait for the answer: a
 * round trip to PostgreSQL, a call into PGlite. A plain number so that counting costs no allocation.
 */
let sent = 0;

export function countStatements(n: number): void {
  sent += n;
}

export function statementsSent(): number {
  return sent;
}
