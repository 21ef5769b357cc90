import fs from "node:fs";
import { createHmac } from "node:crypto";
import {
  checkStandardWebhook,
  parseStandardWebhook,
  parseVerifiedWebhook,
  standardWebhookKey,
  TIMESTAMP_TOLERANCE_SECONDS,
  verifyStandardWebhook,
  verifyWebhookSignature
} from "../../../clients/typescript/verify-webhook";
import { signWebhookBody, signWebhookDelivery, standardSignatureKeyOf } from "../../../services/webhooks/signing";

/** The merchants' webhook helper (clients/typescript/verify-webhook.ts) against the server's signer. */

const SECRET = "whsec_0123456789abcdef";
const body = JSON.stringify({
  id: "0b8e7f3c-2d4a-4f61-8c9b-1a2e3f4d5c6b",
  type: "parcel.delivered",
  createdAt: "2026-01-17T14:02:11.000Z",
  sandbox: false,
  reason: null,
  data: {
    previousStatus: "AT_RELAY",
    parcel: { id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70", status: "DELIVERED", trackingNumber: "RP123456785DZ" }
  }
});
const signature = signWebhookBody(body, SECRET);
const headers = {
  "X-Relay-Event": "parcel.delivered",
  "X-Relay-Delivery-Id": "7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
  "X-Relay-Signature": signature
};

test("accepts what the server signs, from a string or from the raw bytes", () => {
  expect(signature).toBe("sha256=" + createHmac("sha256", SECRET).update(body).digest("hex"));
  expect(verifyWebhookSignature(body, signature, SECRET)).toBe(true);
  expect(verifyWebhookSignature(Buffer.from(body), signature, SECRET)).toBe(true);
  expect(verifyWebhookSignature(new Uint8Array(Buffer.from(body)), [signature], SECRET)).toBe(true);
  expect(verifyWebhookSignature(body, ` ${signature.toUpperCase().replace("SHA256=", "sha256=")} `, SECRET)).toBe(true);
});

test("refuses another secret, an altered body, a re-serialised body and malformed headers, without throwing", () => {
  expect(verifyWebhookSignature(body, signature, SECRET + "x")).toBe(false);
  expect(verifyWebhookSignature(body.replace("DELIVERED", "LOST"), signature, SECRET)).toBe(false);
  expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 1), signature, SECRET)).toBe(false);
  for (const bad of [undefined, "", "sha256=", "sha256=zz", signature.slice(0, -2), "md5=" + signature.slice(7), signature + "00", []]) {
    expect(verifyWebhookSignature(body, bad as string | undefined, SECRET)).toBe(false);
  }
  expect(verifyWebhookSignature(body, signature, "")).toBe(false);
  expect(verifyWebhookSignature(body, signature, [])).toBe(false);
});

test("several secrets while rotating: any one of them verifies", () => {
  expect(verifyWebhookSignature(body, signature, ["whsec_new_secret_value", SECRET])).toBe(true);
  expect(verifyWebhookSignature(body, signature, ["whsec_new_secret_value", "whsec_other"])).toBe(false);
});

test("parseVerifiedWebhook: the event only when genuine and consistent with its headers", () => {
  expect(parseVerifiedWebhook(body, headers, SECRET)).toEqual({
    deliveryId: headers["X-Relay-Delivery-Id"],
    eventType: "parcel.delivered",
    event: JSON.parse(body)
  });
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  expect(parseVerifiedWebhook(Buffer.from(body), lower, SECRET)?.event.data.parcel.trackingNumber).toBe("RP123456785DZ");
  expect(parseVerifiedWebhook(body, { ...headers, "X-Relay-Signature": signWebhookBody(body, "other-secret") }, SECRET)).toBeNull();
  expect(parseVerifiedWebhook(body, { ...headers, "X-Relay-Event": "parcel.lost" }, SECRET)).toBeNull();
  const { "X-Relay-Delivery-Id": _id, ...noId } = headers;
  expect(parseVerifiedWebhook(body, noId, SECRET)).toBeNull();
  const notJson = "not json";
  expect(parseVerifiedWebhook(notJson, { ...headers, "X-Relay-Signature": signWebhookBody(notJson, SECRET) }, SECRET)).toBeNull();
});

test("the helper is dependency-free: it imports node:crypto and nothing else", () => {
  const source = fs.readFileSync(require.resolve("../../../clients/typescript/verify-webhook.ts"), "utf8") as string;
  const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map(m => m[1]);
  expect(imports).toEqual(["node:crypto"]);
});

describe("the Standard Webhooks check", () => {
  const NOW = 1768658531;
  const NEW_SECRET = "whsec_EPskTS7oOptfIXPIWDy/25mK+gAByLkiMp16MUe6gyw=";
  const signed = {
    "X-Relay-Event": "parcel.delivered",
    ...signWebhookDelivery({
      deliveryId: headers["X-Relay-Delivery-Id"],
      body,
      secrets: [{ secret: SECRET, expiresAt: null }],
      now: NOW * 1000
    })
  };
  const options = { nowSeconds: NOW };

  test("parseStandardWebhook: the event with the delivery id when genuine and fresh", () => {
    expect(parseStandardWebhook(body, signed, SECRET, options)).toEqual({
      deliveryId: headers["X-Relay-Delivery-Id"],
      eventType: "parcel.delivered",
      event: JSON.parse(body)
    });
    const lower = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), [v]]));
    expect(parseStandardWebhook(Buffer.from(body), lower, SECRET, options)?.event.data.parcel.trackingNumber).toBe("RP123456785DZ");
  });

  test("parseStandardWebhook: null when stale, forged, inconsistent or not JSON", () => {
    expect(parseStandardWebhook(body, signed, SECRET, { nowSeconds: NOW + TIMESTAMP_TOLERANCE_SECONDS + 1 })).toBeNull();
    expect(parseStandardWebhook(body, signed, NEW_SECRET, options)).toBeNull();
    expect(parseStandardWebhook(body, { ...signed, "X-Relay-Event": "parcel.lost" }, SECRET, options)).toBeNull();
    const notJson = "not json";
    const signedNotJson = signWebhookDelivery({
      deliveryId: "d1",
      body: notJson,
      secrets: [{ secret: SECRET, expiresAt: null }],
      now: NOW * 1000
    });
    expect(checkStandardWebhook(notJson, signedNotJson, SECRET, options)).toBe("valid");
    expect(parseStandardWebhook(notJson, signedNotJson, SECRET, options)).toBeNull();
  });

  test("several secrets while rotating: any one of them verifies", () => {
    expect(verifyStandardWebhook(body, signed, [NEW_SECRET, SECRET], options)).toBe(true);
    expect(verifyStandardWebhook(body, signed, [NEW_SECRET], options)).toBe(false);
    expect(verifyStandardWebhook(body, signed, [], options)).toBe(false);
    expect(verifyStandardWebhook(body, signed, "", options)).toBe(false);
  });

  test("the tolerance is 5 minutes either way by default, and can be narrowed", () => {
    expect(TIMESTAMP_TOLERANCE_SECONDS).toBe(300);
    expect(checkStandardWebhook(body, signed, SECRET, { nowSeconds: NOW - 300 })).toBe("valid");
    expect(checkStandardWebhook(body, signed, SECRET, { nowSeconds: NOW - 301 })).toBe("timestamp_outside_tolerance");
    expect(checkStandardWebhook(body, signed, SECRET, { nowSeconds: NOW + 60, toleranceSeconds: 30 })).toBe("timestamp_outside_tolerance");
  });

  test("uses the clock when no time is given", () => {
    const fresh = signWebhookDelivery({ deliveryId: "d2", body, secrets: [{ secret: SECRET, expiresAt: null }], now: Date.now() });
    expect(verifyStandardWebhook(body, fresh, SECRET)).toBe(true);
    expect(verifyStandardWebhook(body, signed, SECRET)).toBe(false);
  });

  test.each([
    ["a fractional timestamp", `${NOW}.5`],
    ["a timestamp in Arabic-Indic digits", "١٧٦٨٦٥٨٥٣١"],
    ["a negative timestamp", `-${NOW}`],
    ["an empty timestamp", ""]
  ])("refuses %s as malformed", (_case, timestamp) => {
    expect(checkStandardWebhook(body, { ...signed, "webhook-timestamp": timestamp }, SECRET, options)).toBe("invalid_headers");
  });

  test("never throws on a malformed signature header", () => {
    for (const bad of ["", "v1,", "v1", "garbage", "v1,@@@", " ", "v1,ä"]) {
      expect(checkStandardWebhook(body, { ...signed, "webhook-signature": bad }, SECRET, options)).not.toBe("valid");
    }
  });

  test("derives the same key as the server from any secret", () => {
    for (const secret of [SECRET, NEW_SECRET, "boutique-amel-secret-2026", "whsec_QUJDRE==", "سر"]) {
      expect(standardWebhookKey(secret)).toEqual(standardSignatureKeyOf(secret));
    }
  });
});
