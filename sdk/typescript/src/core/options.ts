/** Options of one call; each overrides the client's. */
export interface RequestOptions {
  /** Per attempt, in milliseconds. Default: the client's, 30 000. */
  timeoutMs?: number;
  /** Aborts the call, waiting retries included (an AbortedError, never retried). */
  signal?: AbortSignal;
  /** The Idempotency-Key of a POST: by default a new random one, reused by the SDK's own retries. */
  idempotencyKey?: string;
  /** Retries after a retryable failure, 0 to turn them off. Default: the client's, 2. */
  maxRetries?: number;
  /** Extra headers (e.g. your own X-Request-Id). */
  headers?: Record<string, string>;
}

export interface ClientOptions {
  /** rp_live_… or rp_sandbox_…; the mode of the key is the mode of everything you do. */
  apiKey: string;
  /** The service's address, without /api/partner/v1. Default: http://localhost:3000. */
  baseUrl?: string;
  /** Per attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a retryable failure. Default 2. */
  maxRetries?: number;
  /** Another fetch (a test double, a proxy agent). Default: the platform's. */
  fetch?: typeof fetch;
  /** Sent on every call as User-Agent's suffix, e.g. "my-shop/1.4". */
  appInfo?: string;
}
