import { randomBytes } from "node:crypto";
import { isPassLinkToken, passLinkToken, trackingNumberOfToken } from "../../../lib/pass-link";
import {
  fromBase32,
  isSignedPass,
  parsePass,
  passPublicKey,
  passSigningKey,
  signPass,
  toBase32
} from "../../../services/parcels/pickup-pass/pass-signature";
import { checkPass, parsePass as parseOnPhone } from "../../../web/counter/pickup-pass";
import { offlinePinRefusal, verifierAllowed } from "../../../services/parcels/relay/offline-pin-limits";

/**
 * Issue 43: the pickup pass as the server signs it and as the counter app checks it offline (the
 * app's own module, on Node's WebCrypto: the same Ed25519 the browser has), and the operator's
 * limits on offline PIN hand-overs.
 */
describe("the pickup pass", () => {
  const key = passSigningKey(randomBytes(32).toString("hex"));
  const publicKey = passPublicKey(key);
  const RELAY = "DZ-16-ALGER-CENTRE";
  const text = signPass(key, "RP123456785DZ", RELAY, 3);

  test("its text is upper case, digits and dots (a QR's alphanumeric mode, a wedge scanner), and reads back", () => {
    expect(text).toMatch(/^RP1\.RP123456785DZ\.3\.[A-Z2-7]{103}$/);
    const pass = parsePass(text)!;
    expect(pass).toMatchObject({ trackingNumber: "RP123456785DZ", version: 3 });
    expect(isSignedPass(key, pass, RELAY)).toBe(true);
    expect(parsePass(text.toLowerCase())).toEqual(pass);
    for (const other of ["RP123456785DZ", "RP1.RP123456785DZ.3.", text.slice(0, -1), `${text}A`]) expect(parsePass(other)).toBeNull();
    const bytes = randomBytes(64);
    expect(fromBase32(toBase32(bytes))).toEqual(bytes);
  });

  test("the server refuses it at another relay point, with another key, or altered", () => {
    const pass = parsePass(text)!;
    expect(isSignedPass(key, pass, "DZ-16-HYDRA")).toBe(false);
    expect(isSignedPass(passSigningKey(randomBytes(32).toString("hex")), pass, RELAY)).toBe(false);
    expect(isSignedPass(key, { ...pass, version: 4 }, RELAY)).toBe(false);
    expect(isSignedPass(key, { ...pass, trackingNumber: "RP000000000DZ" }, RELAY)).toBe(false);
  });

  test("the counter app checks it offline with the public key alone: valid, void when the shelf has a newer version, invalid elsewhere", async () => {
    const scanned = parseOnPhone(` ${text.toLowerCase()} `)!;
    expect(scanned.trackingNumber).toBe("RP123456785DZ");
    expect(await checkPass(scanned, RELAY, publicKey, 3)).toBe("valid");
    expect(await checkPass(scanned, RELAY, publicKey, 4)).toBe("void");
    expect(await checkPass(scanned, "DZ-16-HYDRA", publicKey, 3)).toBe("invalid");
    expect(await checkPass(scanned, RELAY, passPublicKey(passSigningKey(randomBytes(32).toString("hex"))), 3)).toBe("invalid");
    const forged = parseOnPhone(text.replace(/\.3\./, ".4."))!;
    expect(await checkPass(forged, RELAY, publicKey, 4)).toBe("invalid");
    expect(parseOnPhone("RP123456785DZ")).toBeNull();
  });

  test("the SMS link's token: as long as a tracking number, names its parcel, opens only that parcel's pass", () => {
    const secret = randomBytes(32).toString("hex");
    const token = passLinkToken("RP123456785DZ", secret)!;
    expect(token).toMatch(/^[0-9A-Za-z]{13}$/);
    expect(token).toHaveLength("RP123456785DZ".length);
    expect(trackingNumberOfToken(token)).toBe("RP123456785DZ");
    expect(isPassLinkToken("RP123456785DZ", token, secret)).toBe(true);
    // Another secret, another parcel, the case changed, a character off: no.
    expect(isPassLinkToken("RP123456785DZ", token, randomBytes(32).toString("hex"))).toBe(false);
    const other = passLinkToken("RP000000014DZ", secret)!;
    expect(trackingNumberOfToken(other)).toBe("RP000000014DZ");
    expect(isPassLinkToken("RP000000014DZ", token, secret)).toBe(false);
    expect(isPassLinkToken("RP123456785DZ", token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(), secret)).toBe(false);
    // A number not of the generator's shape has no token; text that is no token names no parcel.
    expect(passLinkToken("AB123456785DZ", secret)).toBeNull();
    // (A tracking number is read as one before any token: the gateway's /t/ tries the number first.)
    for (const text of ["zzzzzzzzzzzzz", "RP12345678-DZ", "short", ""]) expect(trackingNumberOfToken(text)).toBeNull();
  });
});

describe("offline PIN hand-overs within the operator's limits", () => {
  const defaults = { forCod: false, maxDeclaredValueDzd: 5_000, perDevicePerDay: 3 };
  const parcel = { codStatus: null, codAmountCentimes: null, declaredValueCentimes: null, pickupPinFailures: 0 };

  test("with the defaults: no COD, nothing declared above 5,000 DZD; a locked parcel gets no verifier", () => {
    expect(offlinePinRefusal(parcel, defaults)).toBeNull();
    expect(offlinePinRefusal({ ...parcel, codStatus: "PENDING", codAmountCentimes: 90_000 }, defaults)).toMatch(/cash to collect/);
    expect(offlinePinRefusal({ ...parcel, codStatus: "COLLECTED", codAmountCentimes: 90_000 }, defaults)).toBeNull();
    expect(offlinePinRefusal({ ...parcel, declaredValueCentimes: 500_000 }, defaults)).toBeNull();
    expect(offlinePinRefusal({ ...parcel, declaredValueCentimes: 500_001 }, defaults)).toMatch(/declared above 5000 DZD/);
    expect(verifierAllowed({ ...parcel, pickupPinFailures: 5 }, defaults)).toBe(false);
    expect(verifierAllowed({ ...parcel, pickupPinFailures: 4 }, defaults)).toBe(true);
  });

  test("an operator who allows COD offline gets it", () => {
    expect(offlinePinRefusal({ ...parcel, codStatus: "PENDING", codAmountCentimes: 90_000 }, { ...defaults, forCod: true })).toBeNull();
  });
});
