import { openStore } from "../shared/idb";
import { createOutbox, OutboxItem as SharedOutboxItem } from "../shared/outbox";
import { call, serverNow } from "./api";

/**
 * The courier app's outbox (web/shared/outbox.ts): every scan and count of the day, in the
 * "outbox" store of the "courier" database, flushed under the "courier-outbox" lock. Each carries
 * its Idempotency-Key and the time it was done (`occurredAt`): a relay stop done with no network
 * is sent once, later, with the times of its scans.
 */
export type Kind = "manifest" | "collect" | "close" | "load" | "arrive" | "return" | "cash" | "deposit";
export type OutboxItem = SharedOutboxItem<Kind>;

const outbox = createOutbox<Kind>({
  store: openStore("courier", "outbox"),
  post: (path, body, idempotencyKey) => call("POST", path, body, { idempotencyKey }),
  serverNow,
  stampOccurredAt: true,
  lockName: "courier-outbox",
  syncTag: "outbox",
  // The courier API says a key still running with IDEMPOTENCY_KEY_IN_USE; its CONFLICT is a refusal for good.
  stillRunningCodes: ["IDEMPOTENCY_KEY_IN_USE"]
});

export const { onChange: onOutboxChange, items, submit, flush, dismissResults, startFlushing } = outbox;
