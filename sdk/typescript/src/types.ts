import type { components, operations } from "./generated/api.js";

/**
 * A type of the API with every closed list of strings opened: an answer carrying a status (or any
 * enum value) added after this SDK was built is kept as it came, typed `string`, never thrown away.
 * Compare against the known values and keep a default branch.
 */
export type Open<T> = T extends string
  ? string extends T
    ? T
    : T | (string & {})
  : T extends readonly (infer U)[]
    ? Open<U>[]
    : T extends object
      ? { [K in keyof T]: Open<T[K]> }
      : T;

type Schemas = components["schemas"];
type QueryOf<Op extends keyof operations> = operations[Op]["parameters"] extends { query?: infer Q } ? NonNullable<Q> : never;

export type ParcelStatus = Open<Schemas["ParcelStatus"]>;
export type Parcel = Open<Schemas["ParcelView"]>;
export type ParcelCreateParams = Schemas["ParcelCreateRequest"];
export type ParcelBatchParams = Schemas["ParcelBatchRequest"];
export type ParcelBatchResult = Open<Schemas["ParcelBatchResult"]>;
export type ParcelQuoteParams = Schemas["ParcelQuoteRequest"];
export type ParcelQuote = Open<Schemas["ParcelQuote"]>;
export type ParcelHistory = Open<Schemas["ParcelHistory"]>;
export type ParcelRedirectParams = Schemas["ParcelRedirectRequest"];
export type PickupExtensionParams = Schemas["PickupExtensionRequest"];
export type CancelParams = Schemas["CancelRequest"];
export type ParcelListParams = QueryOf<"listParcels">;
export type LabelDocumentParams = Schemas["LabelDocumentRequest"];
export type LabelDocument = Open<Schemas["LabelDocument"]>;
export type Claim = Open<Schemas["Claim"]>;
export type ClaimParams = Schemas["ClaimRequest"];
export type ClaimListParams = QueryOf<"listClaims">;
export type Return = Open<Schemas["Return"]>;
export type ReturnParams = Schemas["ReturnCreateRequest"];
export type ReturnListParams = QueryOf<"listReturns">;
export type ReturnSettings = Open<Schemas["ReturnSettings"]>;
export type ReturnSettingsParams = Schemas["ReturnSettingsRequest"];
export type RelayPoint = Open<Schemas["RelayPointSearchResult"]>;
export type RelayPointSearchParams = QueryOf<"searchRelayPoints">;
export type Wallet = Open<Schemas["MerchantWallet"]>;
export type WalletEntry = Open<Schemas["WalletEntry"]>;
export type CodSummary = Open<Schemas["CodSummary"]>;
export type CodRemittance = Open<Schemas["CodRemittance"]>;
export type CodRemittanceDetail = Open<Schemas["CodRemittanceDetail"]>;
export type SandboxTriggerParams = Schemas["SandboxTriggerRequest"];
export type SandboxTriggerResult = Open<Schemas["SandboxTriggerResponse"]>;
export type SandboxDropOffParams = Schemas["SandboxDropOffRequest"];
export type Event = Open<Schemas["EventPage"]["items"][number]>;
export type EventListParams = QueryOf<"listEvents">;
export type Health = Open<Schemas["HealthResponse"]>;
export type { components, operations, paths } from "./generated/api.js";
