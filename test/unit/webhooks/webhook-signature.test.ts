import { createHmac } from "node:crypto";
import { signWebhookBody, verifyWebhookSignature } from "../../../services/webhooks/signing";

const secret = "whsec_test_0123456789";
const body = JSON.stringify({
  id: "5b7f3c1e-2d4a-4b6c-8e9f-0a1b2c3d4e5f",
  type: "parcel.delivered",
  createdAt: "2025-01-15T10:00:00.000Z",
  sandbox: false,
  reason: null,
  data: { previousStatus: "RELAY_NOTIFIED", parcel: { trackingNumber: "RP123456785DZ", codAmountDzd: 1500 } }
});

describe("signWebhookBody", () => {
  it("returns sha256= followed by the hex HMAC-SHA256 of the raw body", () => {
    const expected = createHmac("sha256", secret).update(body).digest("hex");
    expect(signWebhookBody(body, secret)).toBe(`sha256=${expected}`);
    expect(signWebhookBody(body, secret)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("signs a Buffer and the equivalent UTF-8 string identically", () => {
    const withAccents = '{"name":"Béjaïa — relais"}';
    expect(signWebhookBody(Buffer.from(withAccents, "utf8"), secret)).toBe(signWebhookBody(withAccents, secret));
  });

  it("matches a known HMAC-SHA256 test vector (RFC 4231 case 2)", () => {
    expect(signWebhookBody("what do ya want for nothing?", "Jefe")).toBe(
      "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
  });
});

describe("verifyWebhookSignature", () => {
  const header = signWebhookBody(body, secret);

  it("accepts the signature of the body as sent, as a string or as bytes", () => {
    expect(verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret)).toBe(true);
  });

  it("tolerates surrounding whitespace and upper-case hex in the header", () => {
    expect(verifyWebhookSignature(body, `  ${header} `, secret)).toBe(true);
    expect(verifyWebhookSignature(body, `sha256=${header.slice(7).toUpperCase()}`, secret)).toBe(true);
  });

  it("refuses a tampered body", () => {
    const tampered = body.replace('"codAmountDzd":1500', '"codAmountDzd":15');
    expect(tampered).not.toBe(body);
    expect(verifyWebhookSignature(tampered, header, secret)).toBe(false);
  });

  it("refuses a re-serialised body (spacing changed), because it is not the bytes that were signed", () => {
    const reformatted = JSON.stringify(JSON.parse(body), null, 2);
    expect(verifyWebhookSignature(reformatted, header, secret)).toBe(false);
  });

  it("refuses another secret", () => {
    expect(verifyWebhookSignature(body, header, "whsec_other")).toBe(false);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["without the prefix", header.slice("sha256=".length)],
    ["with another algorithm", header.replace("sha256=", "sha1=")],
    ["truncated", header.slice(0, -2)],
    ["too long", `${header}00`],
    ["not hex", `sha256=${"z".repeat(64)}`],
    ["one digit changed", header.slice(0, -1) + (header.endsWith("0") ? "1" : "0")]
  ])("refuses a header that is %s", (_case, badHeader) => {
    expect(verifyWebhookSignature(body, badHeader, secret)).toBe(false);
  });
});
