/**
 * How the apps tell the two failures of a call to the relay API apart: an answer with a status is
 * an ApiError (its `code` is the relay API's); no answer at all (offline, cut, timed out) is a
 * NetworkError, the one case where an operation may be queued and sent again with the same
 * Idempotency-Key. Each app's own `call` throws them; the shared outbox reads them.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {}
  ) {
    super(message);
  }
}

export class NetworkError extends Error {}
