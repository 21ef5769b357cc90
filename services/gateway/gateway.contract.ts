import type { OpenApiDocument } from "../../lib/openapi/types";

/** What other processes call `gateway` with, and what it answers. Types only. */

declare module "../../lib/contract" {
  interface ActionContracts {
    /** The partner API's OpenAPI document, built from the declarations on the bus (`npm run api-docs`). */
    "gateway.partnerApiDocs": { params: Record<string, never>; answer: OpenApiDocument };
    "gateway.relayApiDocs": { params: Record<string, never>; answer: OpenApiDocument };
    "gateway.networkApiDocs": { params: Record<string, never>; answer: OpenApiDocument };
    "gateway.backofficeApiDocs": { params: Record<string, never>; answer: OpenApiDocument };
    /** auth.revokeApiKey, on every gateway node, before the revoke answers: the key stops at once. */
    "gateway.forgetApiKey": { params: { keyId: string }; answer: { forgotten: number } };
  }
}
