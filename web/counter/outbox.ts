import { openStore } from "../shared/idb";
import { createOutbox, OutboxItem as SharedOutboxItem } from "../shared/outbox";
import { call, serverNow } from "./api";
import { SERVER_TAKES_OCCURRED_AT } from "./features";

/**
 * The counter app's outbox (web/shared/outbox.ts): arrivals, refusals, offline hand-overs, return
 * dispatches and closures, in the "outbox" store of the "counter" database, flushed under the
 * "counter-outbox" lock. A refused arrival stays after its result is cleared: the parcel is in the
 * shop but not on the shelf, so it stays listed on Today ("for the courier") until the agent says
 * it left (`givenToCourier`).
 */
export type Kind = "arrival" | "handover" | "refusal" | "dispatch" | "closure";
export type OutboxItem = SharedOutboxItem<Kind>;
export { toApiError, type Outcome } from "../shared/outbox";

/** An arrival the server refused after a sync (another relay point's, unknown, full shelf): a parcel the shop holds. */
export const isSetAside = (item: OutboxItem) => item.kind === "arrival" && item.state === "refused" && item.queued;

const outbox = createOutbox<Kind>({
  store: openStore("counter", "outbox"),
  post: (path, body, idempotencyKey) => call("POST", path, body, { idempotencyKey }),
  serverNow,
  stampOccurredAt: SERVER_TAKES_OCCURRED_AT,
  lockName: "counter-outbox",
  syncTag: "outbox",
  keepAfterDismiss: isSetAside
});

export const { onChange: onOutboxChange, items, submit, flush, dismissResults, startFlushing } = outbox;
export const givenToCourier = outbox.remove;
