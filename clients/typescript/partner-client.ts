import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./partner-api";

/**
 * A typed client of the partner API: openapi-fetch over the types that openapi-typescript
 * generates from the OpenAPI document (`npm run client:generate` refreshes partner-api.d.ts).
 * Paths, parameters, bodies and answers, errors included, are checked by the compiler:
 *
 *   const api = createPartnerClient({ baseUrl: "https://api.example.dz", apiKey: process.env.RELAY_API_KEY! });
 *   const { data, error, response } = await api.POST("/api/partner/v1/parcels", {
 *     body: { recipientName: "Amina Benali", recipientPhone: "0555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE" },
 *     params: { header: { "Idempotency-Key": "order-123" } }
 *   });
 *   if (error) console.error(error.code, error.message); else console.log(data.trackingNumber);
 */

export type * from "./partner-api";

export interface PartnerClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** Base address of the service, without /api/partner/v1. */
  baseUrl: string;
  apiKey: string;
}

export type PartnerClient = Client<paths>;

export function createPartnerClient({ baseUrl, apiKey, headers, ...rest }: PartnerClientOptions): PartnerClient {
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `ApiKey ${apiKey}` }
  });
}
