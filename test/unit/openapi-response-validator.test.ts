import { apiResponseValidator, ObservedResponse } from "../helpers/openapi-validator";

/**
 * The validator that test/helpers/http.ts runs on every e2e response must fail on a response the
 * document does not describe; these feed it deliberately wrong ones.
 */

const PARCEL = {
  id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70",
  trackingNumber: "RP123456785DZ",
  status: "CREATED",
  destinationRelayCode: "DZ-16-ALGER-CENTRE",
  labelUrl: "http://127.0.0.1:3000/labels/3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70.pdf?expires=1767225600&signature=ab",
  pricePaidDzd: 450,
  insuredValueDzd: 5000,
  codAmountDzd: null,
  codStatus: null,
  codCashAt: null,
  pickupDeadline: null,
  returnFeeDzd: null,
  direction: "OUTBOUND",
  returnOf: null,
  createdAt: "2026-01-15T09:30:00.000Z",
  updatedAt: "2026-01-15T09:30:00.000Z"
};

const OK_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "x-request-id": "c3a1f0a4-1111-4a4a-9b9b-000000000001",
  "x-ratelimit-limit": "60",
  "x-ratelimit-remaining": "59"
};

function response(overrides: Partial<ObservedResponse> & { body?: unknown }): ObservedResponse {
  const body = overrides.body ?? PARCEL;
  return {
    method: "GET",
    path: `/api/partner/v1/parcels/${PARCEL.id}`,
    status: 200,
    headers: OK_HEADERS,
    text: JSON.stringify(body),
    ...overrides,
    body
  };
}

const validator = apiResponseValidator();
const expectFailure = (res: ObservedResponse, message: RegExp) => {
  expect(() => validator.assert(res)).toThrow(message);
};

test("every schema of both documents compiles in strict mode", () => {
  expect(() => validator.compileAll()).not.toThrow();
});

test("a correct response passes, and is reported as checked against its operation", () => {
  expect(validator.assert(response({}))).toEqual({ checked: true, operationId: "getParcel", errors: [] });
  const page = { items: [PARCEL], page: 0, size: 20, totalElements: 1, totalPages: 1, nextCursor: null };
  expect(validator.assert(response({ path: "/api/partner/v1/parcels?status=CREATED&size=20", body: page })).operationId).toBe(
    "listParcels"
  );
  expect(validator.assert(response({ path: "/api/partner/v1/parcels/by-tracking/RP123456785DZ" })).operationId).toBe("getParcelByTracking");
});

test("a body missing a required field fails", () => {
  const { trackingNumber: _dropped, ...partial } = PARCEL;
  expectFailure(response({ body: partial }), /must have required property 'trackingNumber'/);
});

test("a field the document does not have fails (responses are closed)", () => {
  expectFailure(response({ body: { ...PARCEL, recipientPhone: "0555 12 34 56" } }), /must NOT have additional properties/);
});

test("a wrong type, an unknown status value or a bad format fails", () => {
  expectFailure(response({ body: { ...PARCEL, pricePaidDzd: "450" } }), /pricePaidDzd must be number/);
  expectFailure(response({ body: { ...PARCEL, status: "SHIPPED" } }), /status must be equal to one of the allowed values/);
  expectFailure(response({ body: { ...PARCEL, createdAt: "yesterday" } }), /createdAt must match format "date-time"/);
  expectFailure(response({ body: { ...PARCEL, codAmountDzd: 12.345 } }), /codAmountDzd must be multiple of 0.01/);
});

test("a status the operation does not document fails, even with a well-formed error body", () => {
  const error = { code: "INTERNAL", message: "Internal error", status: 500 };
  expectFailure(response({ status: 500, body: error }), /status 500 is not documented for getParcel/);
  const conflict = { code: "PARCEL_NOT_CANCELLABLE", message: "no", status: 409 };
  expectFailure(response({ status: 409, body: conflict }), /status 409 is not documented for getParcel/);
  expectFailure(
    response({ method: "POST", path: "/api/partner/v1/parcels", status: 200, headers: { ...OK_HEADERS, location: "http://x/y" } }),
    /status 200 is not documented for createParcel/
  );
});

test("an error code that the operation does not answer with that status fails", () => {
  const headers = { "content-type": "application/json", "x-request-id": "r-1" };
  const notFound = { code: "NOT_FOUND", message: "No such route", status: 404 };
  expectFailure(response({ status: 404, headers, body: notFound }), /error code "NOT_FOUND" is not listed for getParcel/);
  const mismatched = { code: "PARCEL_NOT_FOUND", message: "Parcel not found", status: 400 };
  expectFailure(response({ status: 404, headers, body: mismatched }), /status must be equal to constant/);
  expect(
    validator.assert(response({ status: 404, headers, body: { code: "PARCEL_NOT_FOUND", message: "Parcel not found", status: 404 } }))
      .errors
  ).toEqual([]);
});

test("missing or malformed documented headers fail", () => {
  const { "x-request-id": _id, ...noRequestId } = OK_HEADERS;
  expectFailure(response({ headers: noRequestId }), /required header X-Request-Id is missing/);
  expectFailure(response({ headers: { ...OK_HEADERS, "x-ratelimit-remaining": "lots" } }), /header X-RateLimit-Remaining/);
  const create = { method: "POST", path: "/api/partner/v1/parcels", status: 201 };
  expectFailure(response(create), /required header Location is missing/);
  const limited = { code: "RATE_LIMITED", message: "slow down", status: 429 };
  expectFailure(
    response({ path: "/api/partner/v1/health", status: 429, headers: { ...OK_HEADERS, "x-ratelimit-remaining": "0" }, body: limited }),
    /required header Retry-After is missing/
  );
});

test("an undocumented content type, or a body where none is documented, fails", () => {
  expectFailure(response({ headers: { ...OK_HEADERS, "content-type": "text/html" } }), /content type "text\/html" is not documented/);
  const revoke = {
    method: "DELETE",
    path: "/api/backoffice/v1/organizations/3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70/api-keys/3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f71",
    status: 204,
    headers: { "x-request-id": "r-2" }
  };
  expect(validator.assert(response({ ...revoke, body: "", text: "" })).operationId).toBe("revokeApiKey");
  expectFailure(response({ ...revoke, body: "{}", text: "{}" }), /no body is documented/);
});

test("paths and methods the documents do not describe are not checked", () => {
  expect(validator.validate(response({ path: "/api/partner/v1/unknown", status: 404 })).checked).toBe(false);
  expect(validator.validate(response({ method: "DELETE", path: "/api/partner/v1/health", status: 404 })).checked).toBe(false);
  expect(validator.validate(response({ path: "/nowhere", status: 404 })).checked).toBe(false);
});

test("webhook requests are checked against the document's webhooks", () => {
  const body = {
    id: "0b8e7f3c-2d4a-4f61-8c9b-1a2e3f4d5c6b",
    type: "parcel.delivered",
    createdAt: "2026-01-17T14:02:11.000Z",
    occurredAt: "2026-01-17T14:02:11.000Z",
    sequence: 6,
    sandbox: false,
    reason: null,
    data: { previousStatus: "AT_RELAY", parcel: { ...PARCEL, status: "DELIVERED" } }
  };
  const headers = {
    "x-relay-event": "parcel.delivered",
    "x-relay-delivery-id": "7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
    "x-relay-timestamp": "1768658531",
    "x-relay-signature": "sha256=" + "a".repeat(64),
    "webhook-id": "7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
    "webhook-timestamp": "1768658531",
    "webhook-signature": `v1,${"A".repeat(43)}= v1,${"b".repeat(43)}=`
  };
  expect(validator.validateWebhook("partner", { headers, body })).toEqual([]);
  expect(validator.validateWebhook("partner", { headers: { ...headers, "webhook-signature": "v1,abc" }, body })).not.toEqual([]);
  const { sequence: _sequence, ...withoutSequence } = body;
  expect(validator.validateWebhook("partner", { headers, body: withoutSequence })).not.toEqual([]);
  expect(validator.validateWebhook("partner", { headers, body: { ...body, type: "parcel.created" } })).not.toEqual([]);
  expect(validator.validateWebhook("partner", { headers: { ...headers, "x-relay-signature": "md5=abc" }, body })).not.toEqual([]);
  expect(validator.validateWebhook("partner", { headers: { ...headers, "x-relay-event": "parcel.teleported" }, body })).not.toEqual([]);
});
