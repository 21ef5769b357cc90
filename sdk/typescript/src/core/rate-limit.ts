/** The API's rate-limit headers, read from each answer: how many calls a minute, and how many are left. */
export interface RateLimit {
  limit: number | undefined;
  remaining: number | undefined;
}

function intOf(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** X-RateLimit-Limit and X-RateLimit-Remaining; undefined fields when absent (unauthenticated answers). */
export function rateLimitOf(headers: Headers): RateLimit {
  return { limit: intOf(headers.get("x-ratelimit-limit")), remaining: intOf(headers.get("x-ratelimit-remaining")) };
}
