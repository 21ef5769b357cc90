/**
 * The recipient's pickup pass (issue 43, docs/decisions/0047): the QR of the tracking page opened
 * from their pick-up SMS, `RP1.<number>.<version>.<signature, base32>`. The phone checks it with
 * the server's Ed25519 public key (GET /me, kept with the day's copy) and WebCrypto, so a hand-over
 * needs no network and the phone holds nothing worth stealing; the shelf's copy says each parcel's
 * current pass version, so a pass replaced by a new PIN or a redirect is refused here too. The
 * server checks the pass again when the hand-over reaches it.
 */

const PASS_SHAPE = /^RP1\.([A-Z]{2}[0-9]{9}[A-Z]{2})\.([0-9]{1,9})\.([A-Z2-7]{103})$/;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export interface ScannedPass {
  text: string;
  trackingNumber: string;
  version: number;
  signature: Uint8Array<ArrayBuffer>;
}

/** A scan that is a pass (not a label's number), or null. */
export function parsePass(scanned: string): ScannedPass | null {
  const text = scanned.trim().toUpperCase();
  const match = PASS_SHAPE.exec(text);
  if (!match) return null;
  return { text, trackingNumber: match[1], version: Number(match[2]), signature: fromBase32(match[3]) };
}

function fromBase32(text: string): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), c => c.charCodeAt(0));
}

/** What the server signed: the parcel, the relay point it waits at, the pass's version. */
function message(trackingNumber: string, relayCode: string, version: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`relay-parcels pickup pass 1\n${trackingNumber}\n${relayCode}\n${version}`);
}

export type PassCheck = "valid" | "invalid" | "void" | "unsupported";

/**
 * The pass against the server's key and this relay point, then against the parcel's current
 * version (`currentVersion`, from the shelf's copy). "unsupported" where the browser has no Ed25519
 * in WebCrypto: such a phone hands over with a pass only online (the server checks it).
 */
export async function checkPass(pass: ScannedPass, relayCode: string, publicKey: string, currentVersion: number): Promise<PassCheck> {
  let key: Awaited<ReturnType<typeof crypto.subtle.importKey>>;
  try {
    key = await crypto.subtle.importKey("raw", fromBase64(publicKey), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return "unsupported";
  }
  const signed = await crypto.subtle.verify(
    { name: "Ed25519" },
    key,
    pass.signature,
    message(pass.trackingNumber, relayCode, pass.version)
  );
  if (!signed) return "invalid";
  return pass.version === currentVersion ? "valid" : "void";
}
