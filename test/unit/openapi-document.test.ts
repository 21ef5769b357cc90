import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Header, JsonSchema, Operation, Parameter, Reference, Response } from "../../lib/openapi/types";
import { apiDocument } from "../helpers/api-documents";
import { validateOpenApiDocument } from "../helpers/openapi-spec";

/**
 * Issue 5, acceptance 1 and 3: the documents pass a standard OpenAPI 3.1 validator, and every
 * constraint of SPEC §2 and §8 (and our documented extra bounds) is in the partner document, field
 * by field. The expected values are written from the SPEC here, not read from the code. The
 * documents are the ones a gateway builds from the endpoint declarations (test/helpers/global-setup).
 */

const doc = apiDocument("partner");
const backofficeDoc = apiDocument("backoffice");
/** The documented operations of a document, as [method, path, operation]. */
const operationsOf = (d: typeof doc) =>
  Object.entries(d.paths).flatMap(([path, item]) =>
    (["get", "post", "put", "delete", "patch"] as const).filter(m => item[m]).map(m => [m, path, item[m]!] as const)
  );
const P = "/api/partner/v1";
const schemas = doc.components.schemas!;
const STATUSES = [
  "CREATED",
  "READY_FOR_PICKUP",
  "PICKED_UP",
  "IN_TRANSIT",
  "AT_RELAY",
  "RELAY_NOTIFIED",
  "DELIVERED",
  "RETURN_PENDING",
  "RETURNED",
  "LOST",
  "DAMAGED",
  "CANCELLED"
];

function op(method: "get" | "post", path: string): Operation {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found;
}
const resolved = (r: Response | Reference): Response => ("$ref" in r ? doc.components.responses![r.$ref.split("/").pop()!] : r);
const response = (o: Operation, status: number) => resolved(o.responses[String(status)]);
const param = (o: Operation, name: string) => (o.parameters as Parameter[]).find(p => p.name === name)!;
const createBody = schemas.ParcelCreateRequest;
const field = (name: string) => createBody.properties![name];

/** A JSON Schema validator, to test patterns and bounds by their effect and not only their text. */
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, multipleOfPrecision: 9 });
addFormats(ajv);
const accepts = (schema: JsonSchema, value: unknown) => ajv.validate(schema, value) as boolean;

describe("the documents are valid OpenAPI 3.1", () => {
  test.each([
    ["partner", doc],
    ["back-office", backofficeDoc]
  ])("%s document passes @seriousme/openapi-schema-validator", (_name, document) => {
    expect(document.openapi).toBe("3.1.0");
    expect(validateOpenApiDocument(document)).toEqual({ valid: true });
  });

  test("the validator does refuse a broken document", () => {
    const broken = JSON.parse(JSON.stringify(doc));
    broken.paths[`${P}/health`].get.parameters = [{ name: "x", in: "body", schema: {} }];
    expect(validateOpenApiDocument(broken).valid).toBe(false);
  });
});

describe("SPEC §2.2: the creation request, row by row", () => {
  test("required fields are exactly the four of the SPEC, and unknown fields are refused", () => {
    expect([...createBody.required!].sort()).toEqual(["destinationRelayCode", "recipientName", "recipientPhone", "weightG"]);
    expect(createBody.additionalProperties).toBe(false);
    expect(Object.keys(createBody.properties!).sort()).toEqual([
      "codAmountDzd",
      "declaredValueDzd",
      "destinationRelayCode",
      "heightCm",
      "lengthCm",
      "recipientLanguage",
      "recipientName",
      "recipientPhone",
      "weightG",
      "widthCm"
    ]);
    expect(op("post", `${P}/parcels`).requestBody).toMatchObject({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ParcelCreateRequest" } } }
    });
  });

  test("recipientName: string, at most 100 characters", () => {
    expect(field("recipientName")).toMatchObject({ type: "string", maxLength: 100 });
    expect(accepts(field("recipientName"), "N".repeat(100))).toBe(true);
    expect(accepts(field("recipientName"), "N".repeat(101))).toBe(false);
  });

  // SPEC §2.2's pattern, and at least eight digits (eight spaces matched the SPEC's regex alone).
  test("recipientPhone: ^\\+?[0-9 ]{8,20}$ with at least eight digits", () => {
    expect(field("recipientPhone")).toMatchObject({ type: "string", pattern: "^(?=(?:[^0-9]*[0-9]){8})\\+?[0-9 ]{8,20}$" });
    for (const ok of ["05551234", "+213 555 12 34 56", "0555 12 34 56 78 901"]) expect(accepts(field("recipientPhone"), ok)).toBe(true);
    for (const bad of ["0555123", "0555 12 34 56 78 9012", "0555-12-34-56", "++21355512345", "        ", "+1 2 3 4 5 6 7"]) {
      expect(accepts(field("recipientPhone"), bad)).toBe(false);
    }
  });

  test("weightG: integer (int32), 1 to 30000", () => {
    expect(field("weightG")).toMatchObject({ type: "integer", format: "int32", minimum: 1, maximum: 30000 });
  });

  test("destinationRelayCode: DZ, a hyphen, then 3 to 30 of A-Z, 0-9 and hyphen", () => {
    expect(field("destinationRelayCode")).toMatchObject({ type: "string", pattern: "^DZ-[A-Z0-9-]{3,30}$" });
    for (const ok of ["DZ-ABC", "DZ-" + "A".repeat(30), "DZ-16-ALGER-CENTRE"])
      expect(accepts(field("destinationRelayCode"), ok)).toBe(true);
    for (const bad of ["DZ-AB", "DZ-" + "A".repeat(31), "dz-16-alger", "FR-ABC", "DZ-AB_C"])
      expect(accepts(field("destinationRelayCode"), bad)).toBe(false);
  });

  test.each(["lengthCm", "widthCm", "heightCm"])("%s: optional integer (int32), our bound 1 to 300 cm", name => {
    expect(field(name)).toMatchObject({ type: ["integer", "null"], format: "int32", minimum: 1, maximum: 300 });
  });

  // "At most two decimals" is stated in words, not as multipleOf 0.01: floating-point validators
  // (ajv, Prism) would refuse valid amounts such as 19.99 and 1234.56. The server checks the decimals.
  test.each(["declaredValueDzd", "codAmountDzd"])("%s: optional number, our bound 0 to 10 000 000 with at most two decimals", name => {
    expect(field(name)).toMatchObject({ type: ["number", "null"], minimum: 0, maximum: 10_000_000 });
    expect(field(name)).not.toHaveProperty("multipleOf");
    expect(field(name).description).toMatch(/at most two decimals/i);
    for (const amount of [19.99, 1234.56, 0.1, 9_999_999.99]) expect(accepts(field(name), amount)).toBe(true);
  });

  test("codAmountDzd: omitted or null means no COD", () => {
    expect(accepts(field("codAmountDzd"), null)).toBe(true);
    expect(field("codAmountDzd").description).toMatch(/null/i);
  });

  test("Idempotency-Key: optional request header of POST /parcels", () => {
    expect(param(op("post", `${P}/parcels`), "Idempotency-Key")).toMatchObject({
      in: "header",
      required: false,
      schema: { type: "string", minLength: 1, maxLength: 255 }
    });
  });
});

describe("SPEC §8: limits, row by row", () => {
  const list = op("get", `${P}/parcels`);

  test("request rate: 60 requests per minute per key, stated", () => {
    expect(doc.info.description).toMatch(/60 requests per minute per key/);
  });

  const keyed = operationsOf(doc).filter(([, path]) => path.startsWith(P));

  test("rate headers X-RateLimit-Limit and X-RateLimit-Remaining on every answer to an accepted key", () => {
    expect(keyed.length).toBeGreaterThanOrEqual(7);
    for (const [, , o] of keyed) {
      const success = resolved(Object.entries(o.responses).find(([status]) => status.startsWith("2"))![1]);
      for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining"]) {
        expect({ op: o.operationId, name, header: success.headers![name] }).toMatchObject({
          header: { required: true, schema: { type: "integer" } }
        });
      }
    }
  });

  test("on excess: 429 with Retry-After in seconds, on every partner operation", () => {
    for (const [, , o] of keyed) {
      const retryAfter = response(o, 429).headers!["Retry-After"] as Header;
      expect(retryAfter).toMatchObject({ required: true, schema: { type: "integer", minimum: 1 } });
      expect(retryAfter.description).toMatch(/seconds/i);
    }
  });

  test("list page size: 1 to 100, default 20", () => {
    expect(param(list, "size")).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", format: "int32", minimum: 1, maximum: 100, default: 20 }
    });
  });

  test("list page number: zero-based, minimum 0 (int32)", () => {
    expect(param(list, "page")).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", format: "int32", minimum: 0, default: 0 }
    });
    expect(param(list, "page").schema.maximum).toBe(2_147_483_647);
    expect(param(list, "page").description).toMatch(/zero-based/i);
  });

  test("weightG, recipientName, recipientPhone and destinationRelayCode bounds (see §2.2 above) are the request's", () => {
    expect(field("weightG")).toMatchObject({ minimum: 1, maximum: 30000 });
    expect(field("recipientName").maxLength).toBe(100);
    expect(field("recipientPhone").pattern).toBe("^(?=(?:[^0-9]*[0-9]){8})\\+?[0-9 ]{8,20}$");
    expect(field("destinationRelayCode").pattern).toMatch(/\{3,30\}/);
  });

  test("label URL validity: about 30 minutes", () => {
    expect(schemas.ParcelView.properties!.labelUrl.description).toMatch(/30 minutes/);
  });
});

describe("SPEC §2 and §3: responses and the status enum", () => {
  test("the 12 statuses, exactly, for the view, the list filter and the sandbox target", () => {
    expect(schemas.ParcelStatus.enum).toEqual(STATUSES);
    expect(param(op("get", `${P}/parcels`), "status").schema.enum).toEqual(STATUSES);
    expect(schemas.SandboxTriggerRequest.properties!.toStatus.enum).toEqual(STATUSES);
    expect(schemas.SandboxTriggerRequest.required).toEqual(["toStatus"]);
  });

  test("§2.1 parcel view: the nine fields, codStatus, pickupDeadline and returnFeeDzd, all present, labelUrl and codAmountDzd nullable, no recipient data", () => {
    const view = schemas.ParcelView;
    expect([...view.required!].sort()).toEqual([
      "codAmountDzd",
      "codStatus",
      "createdAt",
      "destinationRelayCode",
      "direction",
      "id",
      "insuredValueDzd",
      "labelUrl",
      "pickupDeadline",
      "pricePaidDzd",
      "returnFeeDzd",
      "returnOf",
      "status",
      "trackingNumber",
      "updatedAt"
    ]);
    expect(view.properties!.id).toMatchObject({ type: "string", format: "uuid" });
    expect(view.properties!.labelUrl.type).toEqual(["string", "null"]);
    expect(view.properties!.codAmountDzd.type).toEqual(["number", "null"]);
    expect(view.properties!.createdAt).toMatchObject({ format: "date-time" });
    expect(view.properties!.pickupDeadline).toMatchObject({ type: ["string", "null"], format: "date-time" });
    expect(view.properties!.returnFeeDzd.type).toEqual(["number", "null"]);
    // Issue 44: who holds it, additive (not required: events recorded before it have none).
    expect(view.properties!.custody.type).toEqual(["object", "null"]);
    // Issue 45: where the COD's cash is, additive and not required for the same reason.
    expect(view.properties!.codCashAt.type).toEqual(["string", "null"]);
    expect(view.properties!.codCashAt.enum).toEqual(expect.arrayContaining(["COUNTER", "COURIER", "CARRIER", "PAID"]));
    expect(view.properties).not.toHaveProperty("recipientName");
    expect(view.properties).not.toHaveProperty("recipientPhone");
  });

  test("§2.3 page, §2.5 health and §2.7 trigger response", () => {
    expect(schemas.ParcelPage.properties).toMatchObject({
      page: { type: "integer", format: "int32" },
      size: { type: "integer", format: "int32" },
      totalElements: { type: "integer", format: "int64" },
      totalPages: { type: "integer", format: "int32" }
    });
    expect(schemas.HealthResponse.properties).toMatchObject({
      status: { const: "ok" },
      organizationId: { format: "uuid" },
      serverTime: { format: "date-time" }
    });
    expect([...schemas.SandboxTriggerResponse.required!].sort()).toEqual([
      "newStatus",
      "parcelId",
      "previousStatus",
      "trackingNumber",
      "triggeredAt"
    ]);
  });

  test("§2.4 cancel: optional body with an optional reason", () => {
    const cancel = op("post", `${P}/parcels/{id}/cancel`);
    expect(cancel.requestBody!.required).toBe(false);
    expect(schemas.CancelRequest.required).toBeUndefined();
    expect(schemas.CancelRequest.properties!.reason.type).toEqual(["string", "null"]);
  });
});

describe("SPEC §4 and §7: the seven operations and every status they answer", () => {
  const common = ["401", "429", "503"];
  test.each([
    ["get", `${P}/health`, "getHealth", ["200", "400"]],
    ["post", `${P}/parcels`, "createParcel", ["201", "400", "402", "403", "409", "413", "415", "422"]],
    ["get", `${P}/parcels`, "listParcels", ["200", "400", "403"]],
    ["get", `${P}/parcels/{id}`, "getParcel", ["200", "400", "403", "404"]],
    ["get", `${P}/parcels/by-tracking/{trackingNumber}`, "getParcelByTracking", ["200", "400", "403", "404"]],
    ["post", `${P}/parcels/{id}/cancel`, "cancelParcel", ["200", "400", "403", "404", "409", "413", "415"]],
    ["post", `${P}/sandbox/parcels/{id}/trigger-event`, "triggerSandboxEvent", ["202", "400", "403", "404", "413", "415"]]
  ] as const)("%s %s (%s)", (method, path, operationId, statuses) => {
    const o = op(method, path);
    expect(o.operationId).toBe(operationId);
    expect(Object.keys(o.responses).sort()).toEqual([...statuses, ...common].sort());
    for (const [status, r] of Object.entries(o.responses).map(([s, x]) => [s, resolved(x)] as const)) {
      expect((r.headers!["X-Request-Id"] as Header).required).toBe(true);
      if (status.startsWith("4") || status.startsWith("5")) {
        expect(r.content!["application/json"].schema.allOf![0]).toEqual({ $ref: "#/components/schemas/ApiError" });
      }
    }
  });

  test("each operation names the error codes of each status (SPEC §7 and DESIGN §6)", () => {
    // The codes each response lists (as examples: the set stays open to codes a later v1 adds).
    const codes = (o: Operation, status: number) =>
      (response(o, status).content!["application/json"].schema.allOf![1].properties!.code.examples as string[]).slice().sort();
    const create = op("post", `${P}/parcels`);
    expect(codes(create, 400)).toEqual(["INVALID_TARIFF", "RECIPIENT_PHONE_INVALID", "RELAY_NOT_FOUND", "VALIDATION_FAILED"]);
    expect(codes(create, 402)).toEqual(["INSUFFICIENT_BALANCE"]);
    expect(codes(create, 403)).toEqual(["SCOPE_MISSING"]);
    expect(codes(create, 422)).toEqual(["IDEMPOTENCY_KEY_REUSED"]);
    expect(codes(op("post", `${P}/parcels/{id}/cancel`), 409)).toEqual(["PARCEL_NOT_CANCELLABLE"]);
    const trigger = op("post", `${P}/sandbox/parcels/{id}/trigger-event`);
    expect(codes(trigger, 400)).toEqual(["INVALID_STATUS", "VALIDATION_FAILED"]);
    expect(codes(trigger, 403)).toEqual(["FORBIDDEN", "NOT_SANDBOX_PARCEL", "SANDBOX_KEY_REQUIRED", "SCOPE_MISSING"]);
    expect(codes(op("get", `${P}/parcels/{id}`), 404)).toEqual(["PARCEL_NOT_FOUND"]);
  });

  test("201 of create carries Location; ids in paths are uuids", () => {
    expect(response(op("post", `${P}/parcels`), 201).headers!.Location).toMatchObject({ required: true, schema: { format: "uri" } });
    expect(param(op("get", `${P}/parcels/{id}`), "id")).toMatchObject({
      in: "path",
      required: true,
      schema: { type: "string", format: "uuid" }
    });
    expect(param(op("get", `${P}/parcels/by-tracking/{trackingNumber}`), "trackingNumber").schema.type).toBe("string");
  });

  test("§7 error schema: code, message, status; optional details[{field, message}] and requestId", () => {
    expect(schemas.ApiError).toMatchObject({
      required: ["code", "message", "status"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        status: { type: "integer" },
        details: { type: "array" },
        requestId: { type: "string" }
      }
    });
    // Known codes listed, the set left open: a strict client must not break on a code a later v1 adds.
    expect(schemas.ApiError.properties!.code.examples).toContain("RELAY_NOT_FOUND");
    expect(schemas.ApiError.properties!.code).not.toHaveProperty("enum");
    expect(schemas.FieldProblem.required).toEqual(["field", "message"]);
  });
});

describe("SPEC §5: authentication", () => {
  test("two API key schemes: Authorization: ApiKey <key>, and X-API-Key", () => {
    expect(doc.components.securitySchemes).toEqual({
      ApiKeyAuthorization: expect.objectContaining({
        type: "apiKey",
        in: "header",
        name: "Authorization",
        description: expect.stringContaining("ApiKey <API_KEY>")
      }),
      ApiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" })
    });
  });

  test("each operation accepts either scheme, with the scope its action requires", () => {
    const scopes = Object.fromEntries(operationsOf(doc).map(([, , o]) => [o.operationId, o.security]));
    const either = (scope?: string) => [{ ApiKeyAuthorization: scope ? [scope] : [] }, { ApiKeyHeader: scope ? [scope] : [] }];
    expect(scopes).toEqual({
      getHealth: either(),
      createParcel: either("parcels:write"),
      listParcels: either("parcels:read"),
      getParcel: either("parcels:read"),
      getParcelByTracking: either("parcels:read"),
      cancelParcel: either("parcels:write"),
      extendPickupDeadline: either("parcels:write"),
      redirectParcel: either("parcels:write"),
      triggerSandboxEvent: either("parcels:write"),
      listParcelEvents: either("parcels:read"),
      quoteParcel: either("parcels:read"),
      searchRelayPoints: either("parcels:read"),
      getMyWallet: either("wallet:read"),
      listMyWalletEntries: either("wallet:read"),
      trackParcel: [],
      searchRelayPointsPublic: [],
      requestRedirectCode: [],
      redirectParcelAsRecipient: [],
      listEvents: either("parcels:read"),
      getEvent: either("parcels:read"),
      createParcelBatch: either("parcels:write"),
      createLabelDocument: either("parcels:read"),
      getZplPrinterFont: either("parcels:read"),
      listCodRemittances: either("parcels:read"),
      getCodRemittance: either("parcels:read"),
      getCodSummary: either("parcels:read"),
      downloadLabel: [],
      downloadLabelDocument: [],
      downloadManifest: [],
      openClaim: either("parcels:write"),
      listClaims: either("parcels:read"),
      getClaim: either("parcels:read"),
      createReturn: either("parcels:write"),
      listReturns: either("parcels:read"),
      getReturn: either("parcels:read"),
      cancelReturn: either("parcels:write"),
      getReturnSettings: either("parcels:read"),
      setReturnSettings: either("parcels:write"),
      getRecipientSettings: either("parcels:read"),
      setRecipientSettings: either("parcels:write"),
      dropOffSandboxReturn: either("parcels:write"),
      createPickup: either("parcels:write"),
      listPickups: either("parcels:read"),
      getPickup: either("parcels:read"),
      cancelPickup: either("parcels:write"),
      createManifest: either("parcels:write"),
      listManifests: either("parcels:read"),
      getManifest: either("parcels:read"),
      completeSandboxPickup: either("parcels:write"),
      getPickupAddress: either("parcels:read"),
      setPickupAddress: either("parcels:write"),
      confirmReturnReceived: either("parcels:write")
    });
  });
});

describe("SPEC §6: webhooks", () => {
  test("one entry per event type, parcel.<status in lower case>, cod.collected and cod.remitted, the pick-up deadline events, the claim events, parcel.redirected, and the ping test event, with the X-Relay-* and Standard Webhooks headers", () => {
    expect(Object.keys(doc.webhooks!)).toEqual([
      ...STATUSES.map(s => `parcel.${s.toLowerCase()}`),
      "cod.collected",
      "cod.remitted",
      "cod.cash_collected_by_courier",
      "cod.cash_deposited",
      "parcel.pickup_reminder",
      "parcel.pickup_extended",
      "parcel.recipient_unreachable",
      "parcel.out_for_delivery",
      "parcel.investigation_opened",
      "parcel.investigation_closed",
      "claim.opened",
      "claim.approved",
      "claim.rejected",
      "return.created",
      "return.dropped_off",
      "return.ready_for_collection",
      "return.expired",
      "return.cancelled",
      "parcel.redirected",
      "relay.closure_announced",
      "parcel.missorted",
      "pickup.confirmed",
      "pickup.completed",
      "pickup.cancelled",
      "ping"
    ]);
    for (const [type, item] of Object.entries(doc.webhooks!)) {
      const headers = Object.fromEntries((item.post!.parameters as Parameter[]).map(p => [p.name, p]));
      expect(Object.keys(headers).sort()).toEqual([
        "X-Relay-Delivery-Id",
        "X-Relay-Event",
        "X-Relay-Signature",
        "X-Relay-Timestamp",
        "webhook-id",
        "webhook-signature",
        "webhook-timestamp"
      ]);
      expect(headers["X-Relay-Event"].schema.const).toBe(type);
      expect(headers["X-Relay-Signature"].schema.pattern).toBe("^sha256=[0-9a-f]{64}$");
      expect(headers["X-Relay-Delivery-Id"].schema.format).toBe("uuid");
      expect(headers["webhook-signature"].schema.pattern).toBe("^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$");
      expect(item.post!.requestBody!.content["application/json"].schema.allOf![1].properties!.type.const).toBe(type);
    }
  });

  test("the published retry schedule (at least 3 days, with jitter) and the 5-day disabling are in every parcel event's description", () => {
    for (const status of STATUSES) {
      const description = doc.webhooks![`parcel.${status.toLowerCase()}`].post!.description!;
      expect(description).toContain("5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h");
      expect(description).toContain("0 to 20 %");
      expect(description).toContain("10 attempts over at least 3 days 3 h 35 min");
      expect(description).toContain("failed every attempt for 5 days");
    }
  });

  test("the payload carries sandbox and reason, the ordering help, and the parcel view", () => {
    expect(schemas.ParcelEvent).toMatchObject({
      required: ["id", "type", "createdAt", "occurredAt", "sequence", "sandbox", "reason", "data"],
      properties: { sandbox: { type: "boolean" }, reason: { type: ["string", "null"] } }
    });
    expect(schemas.ParcelEvent.properties!.data.properties!.parcel).toEqual({ $ref: "#/components/schemas/ParcelView" });
  });
});

describe("the documents and the gateway's routes agree", () => {
  test("every documented operation names the action that answers it, and each action one operation", () => {
    const actions = [...operationsOf(doc), ...operationsOf(backofficeDoc)].map(([, , o]) => o["x-action"]);
    expect(actions.every(a => typeof a === "string" && /^[a-z]+\.[A-Za-z]+$/.test(a))).toBe(true);
    expect(new Set(actions).size).toBe(actions.length);
  });

  test("responses are open for additive changes, requests closed", () => {
    expect(schemas.ParcelView).not.toHaveProperty("additionalProperties");
    expect(createBody.additionalProperties).toBe(false);
  });
});
