import type { ServiceBroker } from "moleculer";
import { call, Caller } from "../lib/contract";

/** Long enough for a busy labels service, short enough that a parcel read never waits on a dead one. */
const LABEL_URL_TIMEOUT_MS = 1500;

/**
 * A fresh pre-signed label URL per parcel, valid from now: the parcel views of the API and of
 * every webhook attempt carry one. When the labels service cannot answer right now the views
 * carry `labelUrl: null` (SPEC §2.1) and a later read gets a URL again.
 */
export async function freshLabelUrls(caller: Caller, broker: ServiceBroker, parcelIds: string[]): Promise<Record<string, string>> {
  if (parcelIds.length === 0 || !broker.registry.actions.isAvailable("labels.signUrls")) return {};
  try {
    return (await call(caller, "labels.signUrls", { parcelIds: [...new Set(parcelIds)] }, { timeout: LABEL_URL_TIMEOUT_MS })).labelUrls;
  } catch {
    return {};
  }
}
