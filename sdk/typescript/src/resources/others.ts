import type { RequestOptions } from "../core/options.js";
import type { ListOptions, PageList } from "../core/pagination.js";
import type { WithResponse } from "../core/response-info.js";
import type {
  Claim,
  ClaimListParams,
  ClaimParams,
  CodRemittance,
  CodRemittanceDetail,
  CodSummary,
  Event,
  EventListParams,
  Health,
  RelayPoint,
  RelayPointSearchParams,
  Return,
  ReturnListParams,
  ReturnParams,
  ReturnSettings,
  ReturnSettingsParams,
  SandboxDropOffParams,
  SandboxTriggerParams,
  SandboxTriggerResult,
  Wallet,
  WalletEntry
} from "../types.js";
import { API, Resource, segment } from "./base.js";

/** Customers' returns of your parcels ("a return code by SMS, a drop-off at any relay point"). */
export class Returns extends Resource {
  /** Opens a return of a delivered parcel: the customer gets a return code by SMS. */
  create(parcelId: string, params: ReturnParams, options?: RequestOptions): Promise<WithResponse<Return>> {
    return this.send<Return>(`${API}/parcels/${segment(parcelId)}/returns`, params, options);
  }
  list(params: ReturnListParams = {}, options?: ListOptions): PageList<Return> {
    return this.pages<Return>(`${API}/returns`, params, options);
  }
  get(id: string, options?: RequestOptions): Promise<WithResponse<Return>> {
    return this.read<Return>(`${API}/returns/${segment(id)}`, undefined, options);
  }
  cancel(id: string, options?: RequestOptions): Promise<WithResponse<Return>> {
    return this.send<Return>(`${API}/returns/${segment(id)}/cancel`, {}, options);
  }
  settings(options?: RequestOptions): Promise<WithResponse<ReturnSettings>> {
    return this.read<ReturnSettings>(`${API}/return-settings`, undefined, options);
  }
  setSettings(params: ReturnSettingsParams, options?: RequestOptions): Promise<WithResponse<ReturnSettings>> {
    return this.call<ReturnSettings>({ method: "PUT", path: `${API}/return-settings`, body: params, options });
  }
}

/** Claims for lost, damaged or emptied parcels. */
export class Claims extends Resource {
  create(parcelId: string, params: ClaimParams, options?: RequestOptions): Promise<WithResponse<Claim>> {
    return this.send<Claim>(`${API}/parcels/${segment(parcelId)}/claims`, params, options);
  }
  list(params: ClaimListParams = {}, options?: ListOptions): PageList<Claim> {
    return this.pages<Claim>(`${API}/claims`, params, options);
  }
  get(id: string, options?: RequestOptions): Promise<WithResponse<Claim>> {
    return this.read<Claim>(`${API}/claims/${segment(id)}`, undefined, options);
  }
}

export class RelayPoints extends Resource {
  /** Relay points by wilaya (01 to 69), commune, city, text or distance (`near: "36.75,3.06"`): await a page, or `for await` every point. */
  search(params: RelayPointSearchParams = {}, options?: ListOptions): PageList<RelayPoint> {
    return this.pages<RelayPoint>(`${API}/relay-points`, params, options);
  }
}

export class WalletResource extends Resource {
  /** The balance of the key's mode. */
  get(options?: RequestOptions): Promise<WithResponse<Wallet>> {
    return this.read<Wallet>(`${API}/wallet`, undefined, options);
  }
  /** Debits, refunds and top-ups, newest first. */
  entries(params: { page?: number; size?: number } = {}, options?: ListOptions): PageList<WalletEntry> {
    return this.pages<WalletEntry>(`${API}/wallet/entries`, params, options);
  }
}

/** Cash on delivery: what is collected, what is owed to you, what was paid. */
export class Cod extends Resource {
  summary(options?: RequestOptions): Promise<WithResponse<CodSummary>> {
    return this.read<CodSummary>(`${API}/cod/summary`, undefined, options);
  }
  remittances(params: { page?: number; size?: number } = {}, options?: ListOptions): PageList<CodRemittance> {
    return this.pages<CodRemittance>(`${API}/cod/remittances`, params, options);
  }
  remittance(id: string, options?: RequestOptions): Promise<WithResponse<CodRemittanceDetail>> {
    return this.read<CodRemittanceDetail>(`${API}/cod/remittances/${segment(id)}`, undefined, options);
  }
}

/** Sandbox keys only: move a sandbox parcel as the network would, to test your webhooks end to end. */
export class Sandbox extends Resource {
  trigger(parcelId: string, params: SandboxTriggerParams, options?: RequestOptions): Promise<WithResponse<SandboxTriggerResult>> {
    return this.send<SandboxTriggerResult>(`${API}/sandbox/parcels/${segment(parcelId)}/trigger-event`, params, options);
  }
  dropOffReturn(returnId: string, params: SandboxDropOffParams = {}, options?: RequestOptions): Promise<WithResponse<Return>> {
    return this.send<Return>(`${API}/sandbox/returns/${segment(returnId)}/drop-off`, params, options);
  }
}

export interface EventPage {
  items: Event[];
  next: string | null;
  hasMore: boolean;
}

/** Your organisation's events (what webhooks deliver), oldest first, by cursor: to catch up after downtime. */
export class Events extends Resource {
  list(params: EventListParams = {}, options?: RequestOptions): Promise<WithResponse<EventPage>> {
    return this.read<EventPage>(`${API}/events`, params, options);
  }
  get(id: string, options?: RequestOptions): Promise<WithResponse<Event>> {
    return this.read<Event>(`${API}/events/${segment(id)}`, undefined, options);
  }
  /** Every event after `params.after` (all from the start without it), page after page while `hasMore`. */
  async *all(params: EventListParams = {}, options?: RequestOptions): AsyncGenerator<Event> {
    let after = params.after;
    for (;;) {
      const page = await this.list({ ...params, after }, options);
      yield* page.items;
      if (!page.hasMore || page.next === null) return;
      after = page.next;
    }
  }
}

export class Account extends Resource {
  /** Checks the key: the answer names its organisation and mode. */
  health(options?: RequestOptions): Promise<WithResponse<Health>> {
    return this.read<Health>(`${API}/health`, undefined, options);
  }
}
