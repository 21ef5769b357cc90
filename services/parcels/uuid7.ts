import { randomFillSync } from "node:crypto";

/**
 * UUIDv7 (RFC 9562 §5.7): a 48-bit millisecond timestamp first, then 74 random bits. A parcel's
 * id is the key of its row and of its history's, outbox's and events' parcel_id indexes: a random
 * (v4) id lands each new row on a random leaf of a 10 M-entry b-tree, a buffer miss and, after
 * each checkpoint, a full page image in the WAL for every such leaf, where a time-ordered one
 * appends at the right edge (issue 48: creates on the scaled database ran at 0.64 of the empty
 * one's). The id says when the parcel was made, which its owner already sees (`createdAt`); it was
 * never a secret (every read checks the organisation).
 */
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

export function uuidv7(now: number = Date.now()): string {
  // One call to the generator per 256 ids (as lib/crypto's IVs): randomFillSync costs a syscall.
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const b = Buffer.from(pool.subarray(offset, offset + 16));
  offset += 16;
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
