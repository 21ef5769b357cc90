import { createHmac } from "node:crypto";
import { parseVerifiedWebhook, verifyWebhookSignature } from "../../clients/typescript/verify-webhook";
import { signWebhookBody } from "../../lib/webhook-signature";

/** The merchants' webhook helper (clients/typescript/verify-webhook.ts) against the server's signer. */

const SECRET = "whsec_0123456789abcdef";
const body = JSON.stringify({
  id: "0b8e7f3c-2d4a-4f61-8c9b-1a2e3f4d5c6b",
  type: "parcel.delivered",
  createdAt: "2026-01-17T14:02:11.000Z",
  sandbox: false,
  reason: null,
  data: { previousStatus: "AT_RELAY", parcel: { id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70", status: "DELIVERED", trackingNumber: "RP123456785DZ" } }
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
  const source = require("node:fs").readFileSync(require.resolve("../../clients/typescript/verify-webhook.ts"), "utf8") as string;
  const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map(m => m[1]);
  expect(imports).toEqual(["node:crypto"]);
});
