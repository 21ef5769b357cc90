/**
 * Secret rotation without downtime (Standard Webhooks, "Webhook headers"). An endpoint holds one or
 * more secrets; each is valid until its `expiresAt` (null: until replaced). Rotating adds a new
 * secret and gives every current one an expiry at the end of the overlap, during which every
 * delivery is signed with all of them: a receiver that still knows only the old secret and one
 * that already has the new secret both verify. Expired secrets sign nothing.
 */

export type Instant = Date | number;

export interface EndpointSecret {
  secret: string;
  /** End of validity (exclusive); null while it is the endpoint's current secret. */
  expiresAt: Instant | null;
}

/** How long the previous secret keeps signing after a rotation, unless the operator says otherwise. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The longest overlap we accept: a compromised secret must not keep signing for weeks. */
export const MAX_ROTATION_OVERLAP_MS = 7 * 24 * 3600 * 1000;

export function millisOf(instant: Instant): number {
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!Number.isFinite(ms)) throw new RangeError(`not a valid instant: ${String(instant)}`);
  return ms;
}

function isActive(entry: EndpointSecret, nowMs: number): boolean {
  return entry.expiresAt === null || millisOf(entry.expiresAt) > nowMs;
}

/** Later expiry first; a secret without expiry is the newest. */
function expiryRank(entry: EndpointSecret): number {
  return entry.expiresAt === null ? Number.POSITIVE_INFINITY : millisOf(entry.expiresAt);
}

/**
 * The secrets that sign a delivery sent at `now`, newest first (the one expiring last; ties keep
 * the given order), each string once. Empty when none is valid any more.
 */
export function activeSigningSecrets(secrets: readonly EndpointSecret[], now: Instant): string[] {
  const nowMs = millisOf(now);
  const active = secrets
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => isActive(entry, nowMs))
    .sort((a, b) => expiryRank(b.entry) - expiryRank(a.entry) || a.index - b.index);
  return [...new Set(active.map(({ entry }) => entry.secret))];
}

/**
 * The endpoint's secrets after rotating to `newSecret` at `now`: the new one without expiry first,
 * every still-valid one expiring at `now + overlapMs` at the latest (an earlier expiry is kept),
 * the expired ones dropped. `overlapMs` 0 revokes the old secrets at once (a leaked secret).
 */
export function rotateWebhookSecret(
  secrets: readonly EndpointSecret[],
  newSecret: string,
  now: Instant,
  overlapMs: number = DEFAULT_ROTATION_OVERLAP_MS
): EndpointSecret[] {
  if (newSecret.length === 0) throw new RangeError("the new webhook secret is empty");
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0 || overlapMs > MAX_ROTATION_OVERLAP_MS) {
    throw new RangeError(`overlapMs must be an integer from 0 to ${MAX_ROTATION_OVERLAP_MS}, got ${overlapMs}`);
  }
  const nowMs = millisOf(now);
  const overlapEnd = nowMs + overlapMs;
  const previous = secrets
    .filter(entry => entry.secret !== newSecret && isActive(entry, nowMs))
    .map(entry => ({ secret: entry.secret, expiresAt: new Date(Math.min(expiryRank(entry), overlapEnd)) }))
    .filter(entry => entry.expiresAt.getTime() > nowMs);
  return [{ secret: newSecret, expiresAt: null }, ...previous];
}

/** What is worth storing at `now`: the expired secrets dropped (they never sign again). */
export function unexpiredSecrets(secrets: readonly EndpointSecret[], now: Instant): EndpointSecret[] {
  const nowMs = millisOf(now);
  return secrets.filter(entry => isActive(entry, nowMs));
}
