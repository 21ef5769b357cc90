import { createApiClient } from "../shared/api-client";
import { pairing } from "./device";
import { API, readHeaders, TIMEOUT_MS } from "./early-reads";

/** The courier API, on this page's own origin, with this phone's courier key (web/shared/api-client.ts). */
export { API };

export const { call, serverNow } = createApiClient({
  base: API,
  headers: anonymous => readHeaders(anonymous ? undefined : pairing()?.key),
  timeoutMs: TIMEOUT_MS
});

/** One stop of the day's run (GET /run → run.stops), and what to do there. */
export interface RunStop {
  position: number;
  kind: "PICKUP" | "HUB" | "RELAY";
  pickupId: string | null;
  confirmationNumber: string | null;
  address: { line1: string; city: string; wilaya: string } | null;
  readyAt: string | null;
  closeAt: string | null;
  hubId: string | null;
  hubCode: string | null;
  relayCode: string | null;
  parcelCount: number;
  otherCount: number;
  deliver: string[];
  collectReturns: string[];
  /** HUB: the tracking numbers still to hand in, as the hub's scans left them (absent from a copy kept before it existed). */
  handIn?: string[];
  instruction: string;
  /** RELAY, once the counter-cash work is merged: the till's cash closed and not yet collected (DZD, 0 when none). */
  cashToCollect?: number;
  cashByDenomination?: Record<string, number>;
}

export interface PickupView {
  id: string;
  confirmationNumber: string;
  status: string;
  parcels: { id: string; state: string }[];
  missing: string[];
  unexpected: string[];
}

export interface CourierRun {
  items: PickupView[];
  run: { id: string | null; date: string; courierId: string; hubId: string; stops: RunStop[] };
}

export interface ScanAnswer {
  parcelId: string;
  trackingNumber: string;
  status: string;
  outcome: string;
}

export interface ManifestScanAnswer {
  manifestNumber: string;
  pickupId: string;
  announced: string[];
}

export interface CashCollection {
  id: string;
  status: string;
  amountDzd?: number;
}
