import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { checkStandardWebhook, verifyWebhookSignature } from "../../../clients/typescript/verify-webhook";
import {
  generateWebhookSecret,
  isStandardWebhooksSecret,
  signWebhookDelivery,
  standardSignatureKeyOf,
  standardWebhooksSecretOf
} from "../../../services/webhooks/signing";

const DELIVERY_ID = "7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09";
const NOW_MS = Date.UTC(2026, 0, 17, 14, 2, 11);

describe("generateWebhookSecret", () => {
  it("returns whsec_ + base64 of 32 random bytes, in the form the official libraries read as is", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(isStandardWebhooksSecret(secret)).toBe(true);
    expect(standardWebhooksSecretOf(secret)).toBe(secret);
    expect(standardSignatureKeyOf(secret)).toHaveLength(32);
  });

  it("draws a new secret each time", () => {
    expect(new Set(Array.from({ length: 20 }, () => generateWebhookSecret())).size).toBe(20);
  });

  it("encodes the random bytes it is given", () => {
    const bytes = Buffer.alloc(32, 0xfb);
    expect(generateWebhookSecret(size => bytes.subarray(0, size))).toBe("whsec_" + bytes.toString("base64"));
  });
});

describe("a secret the merchant chose", () => {
  it.each([
    ["plain words", "boutique-amel-secret-2026"],
    ["whsec_ then characters outside base64", "whsec_test_0123456789"],
    ["whsec_ then base64 without its padding", "whsec_QUJDRA"],
    ["whsec_ then base64 with non-zero trailing bits", "whsec_QUJDRE=="],
    ["whsec_ alone", "whsec_"],
    ["Arabic and accents", "سر-المتجر-Béjaïa"]
  ])("%s: is keyed by its UTF-8 bytes and shown as whsec_ + base64 of them", (_case, secret) => {
    expect(isStandardWebhooksSecret(secret)).toBe(false);
    expect(standardSignatureKeyOf(secret)).toEqual(Buffer.from(secret, "utf8"));
    expect(standardWebhooksSecretOf(secret)).toBe("whsec_" + Buffer.from(secret, "utf8").toString("base64"));
  });

  it("has a whsec_ form that is itself a standard secret for the same key", () => {
    const form = standardWebhooksSecretOf("boutique-amel-secret-2026");
    expect(isStandardWebhooksSecret(form)).toBe(true);
    expect(standardSignatureKeyOf(form)).toEqual(Buffer.from("boutique-amel-secret-2026"));
  });
});

describe("any secret, any body", () => {
  afterEach(() => jest.restoreAllMocks());

  const secrets = fc.oneof(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map(bytes => "whsec_" + Buffer.from(bytes).toString("base64")),
    fc.string({ minLength: 0, maxLength: 40 }).map(rest => "whsec_" + rest)
  );
  const bodies = fc.string({ unit: "grapheme", maxLength: 300 }).map(text => JSON.stringify({ type: "parcel.delivered", reason: text }));

  it("is verified by the official library given its whsec_ form, and by our snippet given the secret itself", () => {
    jest.spyOn(Date, "now").mockReturnValue(NOW_MS);
    fc.assert(
      fc.property(secrets, bodies, (secret, body) => {
        const headers = signWebhookDelivery({ deliveryId: DELIVERY_ID, body, secrets: [{ secret, expiresAt: null }], now: NOW_MS });
        expect(new Webhook(standardWebhooksSecretOf(secret)).verify(body, headers)).toEqual(JSON.parse(body));
        expect(checkStandardWebhook(body, headers, secret, { nowSeconds: NOW_MS / 1000 })).toBe("valid");
        expect(verifyWebhookSignature(body, headers["X-Relay-Signature"], secret)).toBe(true);
      }),
      { numRuns: 300 }
    );
  });
});
