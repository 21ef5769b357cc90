import { randomUUID } from "node:crypto";
import type { RequestOptions } from "../core/options.js";
import type { ListOptions, PageList } from "../core/pagination.js";
import type { WithResponse } from "../core/response-info.js";
import type {
  CancelParams,
  LabelDocument,
  LabelDocumentParams,
  Parcel,
  ParcelBatchParams,
  ParcelBatchResult,
  ParcelCreateParams,
  ParcelHistory,
  ParcelListParams,
  ParcelQuote,
  ParcelQuoteParams,
  ParcelRedirectParams,
  PickupExtensionParams
} from "../types.js";
import { API, Resource, segment } from "./base.js";

export type LabelFormat = "a6" | "a4" | "4x6" | "zpl";

export class Parcels extends Resource {
  /**
   * Creates a parcel and debits its price from the wallet. Sent with an Idempotency-Key (yours in
   * `options.idempotencyKey`, e.g. your order number, or a random one), the same on every retry:
   * a create whose answer was lost is answered again, never made or paid twice.
   */
  create(params: ParcelCreateParams, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.send<Parcel>(`${API}/parcels`, params, options);
  }

  /**
   * Creates 1 to 100 parcels in one call; each item fails or succeeds alone (its own `status`). An
   * item without an `idempotencyKey` gets "<the call's key>:<index>", so a retried batch makes and
   * pays each parcel once.
   */
  async createBatch(params: ParcelBatchParams, options: RequestOptions = {}): Promise<WithResponse<ParcelBatchResult>> {
    const key = options.idempotencyKey ?? randomUUID();
    const items = params.items.map((item, index) => ({ ...item, idempotencyKey: item.idempotencyKey ?? `${key}:${index}` }));
    return this.call<ParcelBatchResult>({
      method: "POST",
      path: `${API}/parcels/batch`,
      body: { ...params, items },
      options: { ...options, idempotencyKey: key },
      idempotencyHeader: false
    });
  }

  /** Your parcels, newest first: `await` it for one page, `for await` it for every parcel (up to `maxItems`). */
  list(params: ParcelListParams = {}, options?: ListOptions): PageList<Parcel> {
    return this.pages<Parcel>(`${API}/parcels`, params, options);
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.read<Parcel>(`${API}/parcels/${segment(id)}`, undefined, options);
  }

  byTracking(trackingNumber: string, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.read<Parcel>(`${API}/parcels/by-tracking/${segment(trackingNumber)}`, undefined, options);
  }

  cancel(id: string, params: CancelParams = {}, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.send<Parcel>(`${API}/parcels/${segment(id)}/cancel`, params, options);
  }

  /** The price of a parcel, without creating it. */
  quote(params: ParcelQuoteParams, options?: RequestOptions): Promise<WithResponse<ParcelQuote>> {
    return this.send<ParcelQuote>(`${API}/parcels/quote`, params, options);
  }

  /** Every status of the parcel, oldest first. */
  events(id: string, options?: RequestOptions): Promise<WithResponse<ParcelHistory>> {
    return this.read<ParcelHistory>(`${API}/parcels/${segment(id)}/events`, undefined, options);
  }

  /** Sends the parcel to another relay point before it arrives. */
  redirect(id: string, params: ParcelRedirectParams, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.send<Parcel>(`${API}/parcels/${segment(id)}/redirect`, params, options);
  }

  /** Gives the recipient 1 to 7 more days to collect the parcel at its relay point. */
  extendPickup(id: string, params: PickupExtensionParams, options?: RequestOptions): Promise<WithResponse<Parcel>> {
    return this.send<Parcel>(`${API}/parcels/${segment(id)}/pickup-extension`, params, options);
  }

  /**
   * The parcel's label: the PDF (or ZPL) bytes, read through a fresh pre-signed URL. To link it
   * instead (a browser opens it without a key for 30 minutes), use `(await parcels.get(id)).labelUrl`.
   */
  async label(
    id: string,
    params: { format?: LabelFormat } = {},
    options?: RequestOptions
  ): Promise<WithResponse<{ bytes: ArrayBuffer; contentType: string }>> {
    const parcel = await this.get(id, options);
    if (!parcel.labelUrl) throw new TypeError(`Parcel ${id} has no label (status ${parcel.status})`);
    const url = new URL(parcel.labelUrl);
    if (params.format) url.searchParams.set("format", params.format);
    const { data, info } = await this.http.request<ArrayBuffer>({ method: "GET", path: url.pathname + url.search, options, as: "bytes" });
    const result = { bytes: data, contentType: info.headers.get("content-type") ?? "application/pdf" };
    Object.defineProperty(result, "lastResponse", { value: info, enumerable: false });
    return result as WithResponse<typeof result>;
  }

  /** One document with the labels of up to 100 parcels, as a pre-signed URL. */
  labels(params: LabelDocumentParams, options?: RequestOptions): Promise<WithResponse<LabelDocument>> {
    return this.send<LabelDocument>(`${API}/labels`, params, options);
  }
}
