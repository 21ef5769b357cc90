import { hashApiKey, NewKey, randomBase62 } from "./api-keys";

/**
 * Relay-agent keys: the credential of a relay point's counter app on the relay API. Their own
 * prefix tells them apart from partner keys at a glance and at the gateway's first look: a
 * partner key is refused on the relay API, an agent key on the partner API, before any lookup.
 * Shared by `auth` (which makes and stores them) and the gateway (which reads them).
 */

export const AGENT_KEY_PREFIX = "rp_agent_";

const SECRET_LENGTH = 40;
/** Characters of the secret left readable in `keyPrefix`, as for partner keys. */
const VISIBLE_SECRET_CHARS = 8;
const AGENT_KEY_SHAPE = /^rp_agent_[A-Za-z0-9]{40}$/;
export const AGENT_KEY_PREFIX_PATTERN = "^rp_agent_[A-Za-z0-9]{8}$";

export function generateAgentKey(): NewKey {
  const key = AGENT_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { key, keyPrefix: key.slice(0, AGENT_KEY_PREFIX.length + VISIBLE_SECRET_CHARS), keyHash: hashApiKey(key) };
}

export function isWellFormedAgentKey(key: string): boolean {
  return AGENT_KEY_SHAPE.test(key);
}

/** Who calls the relay API, resolved from an agent key; travels in `ctx.meta.agent`. */
export interface AgentPrincipal {
  keyId: string;
  keyPrefix: string;
  relayCode: string;
  /**
   * When the key was made, that is when the device was paired (ISO 8601): no operation of the
   * device happened before it (lib/occurred-at.ts). Absent from a principal cached by a gateway of
   * an older version during a rolling update.
   */
  pairedAt?: string;
}

/** The device's pairing time, or null when the principal does not say it. */
export function pairedAtOf(agent: AgentPrincipal): Date | null {
  return agent.pairedAt ? new Date(agent.pairedAt) : null;
}

export interface AgentMeta {
  agent: AgentPrincipal;
}
