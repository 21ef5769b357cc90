import type Redis from "ioredis";

/**
 * One reservation of `size` consecutive places in a key's shared one-minute window: a single
 * atomic script (INCRBY, the window's expiry set by whoever opened it, its time left). The count
 * it answers is the last place reserved; the block is the `size` places that end there. Every
 * place is handed out once across all gateways, so the places numbered up to the limit are exactly
 * the requests the window admits (decision 0039).
 */
const RESERVE_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

type ReservingRedis = Redis & { relayReserve(key: string, size: number, windowMs: number): Promise<[number, number]> };

export interface Reservation {
  /** The last place reserved (places count from 1 within the window). */
  last: number;
  /** When the window ends, on this process's clock, never later than Redis ends it. */
  endsAt: number;
}

export async function reserveBlock(redis: Redis, key: string, size: number, windowMs: number): Promise<Reservation> {
  const client = redis as ReservingRedis;
  if (typeof client.relayReserve !== "function") client.defineCommand("relayReserve", { numberOfKeys: 1, lua: RESERVE_SCRIPT });
  // Taken before the call: Redis counted the time left after it, so the window ends here no later than there.
  const sentAt = Date.now();
  const [last, ttl] = await client.relayReserve(key, size, windowMs);
  return { last: Number(last), endsAt: sentAt + Number(ttl) };
}
