import { createHmac } from "node:crypto";
import { checkStandardWebhook, verifyWebhookSignature } from "../../../clients/typescript/verify-webhook";
import {
  activeSigningSecrets,
  DEFAULT_ROTATION_OVERLAP_MS,
  EndpointSecret,
  NoActiveWebhookSecretError,
  rotateWebhookSecret,
  signWebhookDelivery,
  unexpiredSecrets
} from "../../../services/webhooks/signing";

const OLD = "whsec_+Z8D0V2VkxJLuYOKBiDBWYtwg6c+2SHhZwHF7gWyC2Q=";
const NEW = "whsec_EPskTS7oOptfIXPIWDy/25mK+gAByLkiMp16MUe6gyw=";
const CHOSEN = "boutique-amel-secret-2026";
const HOUR = 3600 * 1000;
const T0 = new Date("2026-01-17T14:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const body = JSON.stringify({ type: "parcel.delivered", reason: "Remis au relais de Béjaïa" });
const deliveryId = "7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09";

describe("rotateWebhookSecret", () => {
  it("puts the new secret first and lets the current one sign for 24 h more by default", () => {
    expect(DEFAULT_ROTATION_OVERLAP_MS).toBe(24 * HOUR);
    expect(rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0)).toEqual([
      { secret: NEW, expiresAt: null },
      { secret: OLD, expiresAt: at(24 * HOUR) }
    ]);
  });

  it("takes another overlap, and 0 revokes the old secret at once (a leaked secret)", () => {
    expect(rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0, 2 * HOUR)[1]).toEqual({ secret: OLD, expiresAt: at(2 * HOUR) });
    expect(rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0, 0)).toEqual([{ secret: NEW, expiresAt: null }]);
  });

  it("never lengthens an expiry already set, and drops what has expired", () => {
    const secrets: EndpointSecret[] = [
      { secret: CHOSEN, expiresAt: null },
      { secret: OLD, expiresAt: at(HOUR) },
      { secret: "whsec_AAAA", expiresAt: at(-HOUR) }
    ];
    expect(rotateWebhookSecret(secrets, NEW, T0)).toEqual([
      { secret: NEW, expiresAt: null },
      { secret: CHOSEN, expiresAt: at(24 * HOUR) },
      { secret: OLD, expiresAt: at(HOUR) }
    ]);
  });

  it("rotating to the secret already in use keeps one entry of it", () => {
    expect(rotateWebhookSecret([{ secret: NEW, expiresAt: null }], NEW, T0)).toEqual([{ secret: NEW, expiresAt: null }]);
  });

  it("refuses an empty secret and an overlap out of range", () => {
    expect(() => rotateWebhookSecret([], "", T0)).toThrow(RangeError);
    expect(() => rotateWebhookSecret([], NEW, T0, -1)).toThrow(RangeError);
    expect(() => rotateWebhookSecret([], NEW, T0, 8 * 24 * HOUR)).toThrow(RangeError);
    expect(() => rotateWebhookSecret([], NEW, T0, 1.5)).toThrow(RangeError);
  });
});

describe("activeSigningSecrets", () => {
  const rotated = rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0);

  it("is newest first during the overlap, whatever the order stored", () => {
    expect(activeSigningSecrets(rotated, at(HOUR))).toEqual([NEW, OLD]);
    expect(activeSigningSecrets([...rotated].reverse(), at(HOUR))).toEqual([NEW, OLD]);
  });

  it("drops the old secret from the very millisecond it expires", () => {
    expect(activeSigningSecrets(rotated, at(24 * HOUR - 1))).toEqual([NEW, OLD]);
    expect(activeSigningSecrets(rotated, at(24 * HOUR))).toEqual([NEW]);
    expect(unexpiredSecrets(rotated, at(24 * HOUR))).toEqual([{ secret: NEW, expiresAt: null }]);
  });

  it("takes instants as Date or milliseconds, and names each secret once", () => {
    const secrets = [
      { secret: OLD, expiresAt: T0.getTime() + HOUR },
      { secret: NEW, expiresAt: null },
      { secret: NEW, expiresAt: null }
    ];
    expect(activeSigningSecrets(secrets, T0.getTime())).toEqual([NEW, OLD]);
  });

  it("refuses an instant that is not one", () => {
    expect(() => activeSigningSecrets([{ secret: OLD, expiresAt: new Date("nonsense") }], T0)).toThrow(RangeError);
  });
});

describe("signWebhookDelivery", () => {
  it("signs with both secrets during the overlap: a receiver on either secret verifies", () => {
    const secrets = rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0);
    const headers = signWebhookDelivery({ deliveryId, body, secrets, now: at(HOUR) });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    const nowSeconds = Math.floor(at(HOUR).getTime() / 1000);
    expect(checkStandardWebhook(body, headers, OLD, { nowSeconds })).toBe("valid");
    expect(checkStandardWebhook(body, headers, NEW, { nowSeconds })).toBe("valid");
    // X-Relay-Signature holds one signature: the newest secret's.
    expect(verifyWebhookSignature(body, headers["X-Relay-Signature"], NEW)).toBe(true);
    expect(verifyWebhookSignature(body, headers["X-Relay-Signature"], OLD)).toBe(false);
  });

  it("signs with the new secret alone once the overlap is over", () => {
    const secrets = rotateWebhookSecret([{ secret: OLD, expiresAt: null }], NEW, T0);
    const headers = signWebhookDelivery({ deliveryId, body, secrets, now: at(25 * HOUR) });
    const nowSeconds = Math.floor(at(25 * HOUR).getTime() / 1000);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(checkStandardWebhook(body, headers, OLD, { nowSeconds })).toBe("no_matching_signature");
    expect(checkStandardWebhook(body, headers, NEW, { nowSeconds })).toBe("valid");
  });

  it("gives every identity header, the attempt's whole second as both timestamps", () => {
    const headers = signWebhookDelivery({ deliveryId, body, secrets: [{ secret: CHOSEN, expiresAt: null }], now: T0.getTime() + 999 });
    const seconds = String(T0.getTime() / 1000);
    expect(headers).toEqual({
      "X-Relay-Delivery-Id": deliveryId,
      "X-Relay-Timestamp": seconds,
      "X-Relay-Signature": "sha256=" + createHmac("sha256", CHOSEN).update(body).digest("hex"),
      "webhook-id": deliveryId,
      "webhook-timestamp": seconds,
      "webhook-signature": "v1," + createHmac("sha256", CHOSEN).update(`${deliveryId}.${seconds}.${body}`).digest("base64")
    });
  });

  it("signs a Buffer and the equivalent UTF-8 string identically", () => {
    const secrets = [{ secret: NEW, expiresAt: null }];
    expect(signWebhookDelivery({ deliveryId, body: Buffer.from(body), secrets, now: T0 })).toEqual(
      signWebhookDelivery({ deliveryId, body, secrets, now: T0 })
    );
  });

  it("refuses to sign without a valid secret, rather than send an unsigned delivery", () => {
    expect(() => signWebhookDelivery({ deliveryId, body, secrets: [], now: T0 })).toThrow(NoActiveWebhookSecretError);
    expect(() => signWebhookDelivery({ deliveryId, body, secrets: [{ secret: OLD, expiresAt: T0 }], now: T0 })).toThrow(
      NoActiveWebhookSecretError
    );
    expect(() => signWebhookDelivery({ deliveryId, body, secrets: [{ secret: "", expiresAt: null }], now: T0 })).toThrow(
      NoActiveWebhookSecretError
    );
  });

  it.each([
    ["empty", ""],
    ["with a dot", "a.b"],
    ["with a space", "a b"],
    ["with a line break", "a\r\nX-Evil: 1"]
  ])("refuses a delivery id %s: it is part of the signed content and of a header", (_case, id) => {
    expect(() => signWebhookDelivery({ deliveryId: id, body, secrets: [{ secret: NEW, expiresAt: null }], now: T0 })).toThrow(RangeError);
  });

  it("refuses a time before 1970 or not a time", () => {
    const secrets = [{ secret: NEW, expiresAt: null }];
    expect(() => signWebhookDelivery({ deliveryId, body, secrets, now: -5000 })).toThrow(RangeError);
    expect(() => signWebhookDelivery({ deliveryId, body, secrets, now: Number.NaN })).toThrow(RangeError);
  });
});
