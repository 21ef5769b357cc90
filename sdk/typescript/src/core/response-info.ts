import type { RateLimit } from "./rate-limit.js";

/** What the SDK knows of the answer a result came from. */
export interface ResponseInfo {
  status: number;
  requestId: string | undefined;
  /** The Idempotency-Key the call was sent with (POST), to reuse after a crash of your own. */
  idempotencyKey: string | undefined;
  rateLimit: RateLimit;
  /** How many retries it took (0: the first attempt answered). */
  retries: number;
  headers: Headers;
}

/** A result, with `lastResponse` beside its fields (not enumerable: JSON.stringify leaves it out). */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

export function withResponse<T>(data: T, info: ResponseInfo): WithResponse<T> {
  const target = (data !== null && typeof data === "object" ? data : { value: data }) as object;
  Object.defineProperty(target, "lastResponse", { value: info, enumerable: false, configurable: true });
  return target as WithResponse<T>;
}
