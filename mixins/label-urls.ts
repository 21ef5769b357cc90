import type { ServiceBroker } from "moleculer";
import { call, Caller } from "../lib/contract";
import { signLabelUrls } from "../lib/label-url";
import { configOf } from "./config.mixin";

/** Long enough for a busy labels service, short enough that a parcel read never waits on a dead one. */
const LABEL_URL_TIMEOUT_MS = 1500;
const SIGN_ACTION = "labels.signUrls";

/**
 * A fresh pre-signed label URL per parcel, valid from now: the parcel views of the API and of
 * every webhook attempt carry one. Signed here, with the HMAC the labels service checks
 * (lib/label-url.ts), when this process holds LABEL_URL_SECRET (every process of the system
 * does): no call. A process without it asks `labels.signUrls`. Either way, when no labels
 * service is there to serve the URL right now the views carry `labelUrl: null` (SPEC §2.1) and a
 * later read gets a URL again.
 */
export async function freshLabelUrls(caller: Caller, broker: ServiceBroker, parcelIds: string[]): Promise<Record<string, string>> {
  if (parcelIds.length === 0 || !broker.registry.actions.isAvailable(SIGN_ACTION)) return {};
  const config = configOf(broker);
  const secret = config.secrets.labelUrlSecret;
  if (secret) return signLabelUrls(config.publicBaseUrl, parcelIds, secret);
  try {
    return (await call(caller, SIGN_ACTION, { parcelIds: [...new Set(parcelIds)] }, { timeout: LABEL_URL_TIMEOUT_MS })).labelUrls;
  } catch {
    return {};
  }
}
