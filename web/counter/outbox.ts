import { ApiError, call, NetworkError, serverNow } from "./api";
import { SERVER_TAKES_OCCURRED_AT } from "./features";
import { store } from "./idb";

/**
 * The explicit outbox: every operation the server can accept later (arrivals, refusals, offline
 * hand-overs, return dispatches, closures) is written to IndexedDB with its Idempotency-Key and
 * the moment the shop did it (`occurredAt`) before it is sent. Sent at once when there is a
 * network; otherwise it waits, shown on screen, and goes on reconnect, on return to the app, on a
 * timer, or when a Background Sync wakes the page. The same key on every try makes a re-send of
 * an answer that was lost count once; an item leaves the waiting state only on an answer.
 */
export type Kind = "arrival" | "handover" | "refusal" | "dispatch" | "closure";

export interface OutboxItem {
  /** Also its Idempotency-Key. */
  id: string;
  kind: Kind;
  path: string;
  body: Record<string, unknown>;
  /** What the shop reads in the list: a tracking number, or how many. */
  subject: string;
  createdAt: string;
  /** When the shop did it, in the server's time (sent as `occurredAt` where the API takes it). */
  occurredAt: string;
  state: "waiting" | "sent" | "refused";
  /** Its first try got no answer: its result goes to the sync results the shop reads later. */
  queued: boolean;
  /**
   * A refused arrival whose sync result the shop cleared: the parcel is in the shop but not on the
   * shelf, so it stays listed on Today ("for the courier") until the agent says it left.
   */
  setAside?: boolean;
  error?: { code: string; message: string; status: number; details: Record<string, unknown> };
  answer?: unknown;
}

/** `queued` carries the item's id: a screen follows it until it is sent or refused (onOutboxChange). */
export type Outcome = { outcome: "done"; answer: unknown } | { outcome: "refused"; error: ApiError } | { outcome: "queued"; id: string };

const listeners = new Set<() => void>();

/** Calls `listener` on every change of the outbox; the function returned stops it. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  listeners.forEach(listener => listener());
}

export async function items(): Promise<OutboxItem[]> {
  const all = await store.all<OutboxItem>();
  return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The answers that are no answer yet: a 5xx, a 429, and a 409 IDEMPOTENCY_KEY_IN_USE or CONFLICT (the same key still running
 * on the server, after a lost answer). The item waits and goes again with its key, as with no network.
 */
function isTransient(err: ApiError): boolean {
  return err.status >= 500 || err.status === 429 || err.code === "IDEMPOTENCY_KEY_IN_USE" || err.code === "CONFLICT";
}

async function send(item: OutboxItem): Promise<Outcome> {
  try {
    const answer = await call("POST", item.path, item.body, { idempotencyKey: item.id });
    return { outcome: "done", answer };
  } catch (err) {
    if (err instanceof ApiError && !isTransient(err)) return { outcome: "refused", error: err };
    if (err instanceof ApiError || err instanceof NetworkError) return { outcome: "queued", id: item.id };
    throw err;
  }
}

/**
 * Records an operation, then sends what waits (older operations first, so that the server sees
 * them in the shop's order). `stamped` adds `occurredAt` (server time, fixed now: a re-send must
 * carry the very same body under its key). An operation answered at once leaves the outbox; one
 * that waits stays, and its result joins the sync results when it goes.
 */
export async function submit(kind: Kind, path: string, body: Record<string, unknown>, subject: string, stamped = true): Promise<Outcome> {
  const occurredAt = serverNow().toISOString();
  const item: OutboxItem = {
    id: crypto.randomUUID(),
    kind,
    path,
    body: stamped && SERVER_TAKES_OCCURRED_AT ? { ...body, occurredAt } : body,
    occurredAt,
    subject,
    createdAt: new Date().toISOString(),
    state: "waiting",
    queued: !navigator.onLine
  };
  await store.put(item);
  changed();
  if (!item.queued) await flush();
  const after = (await items()).find(other => other.id === item.id);
  if (!after || after.state === "waiting") {
    if (after && !after.queued) await store.put({ ...after, queued: true });
    askForBackgroundSync();
    changed();
    return { outcome: "queued", id: item.id };
  }
  if (after.queued)
    return after.state === "sent" ? { outcome: "done", answer: after.answer } : { outcome: "refused", error: toApiError(after) };
  await store.remove(item.id);
  changed();
  return after.state === "sent" ? { outcome: "done", answer: after.answer } : { outcome: "refused", error: toApiError(after) };
}

export function toApiError(item: OutboxItem): ApiError {
  return new ApiError(item.error?.status ?? 409, item.error?.code ?? "UNKNOWN", item.error?.message ?? "", item.error?.details ?? {});
}

let flushing: Promise<void> | null = null;

/** Sends what waits, oldest first, one at a time; stops at the first that gets no answer. */
export function flush(): Promise<void> {
  flushing ??= withLock(flushNow).finally(() => {
    flushing = null;
    changed();
  });
  return flushing;
}

async function flushNow(): Promise<void> {
  for (const item of await items()) {
    if (item.state !== "waiting") continue;
    const outcome = await send(item);
    if (outcome.outcome === "queued") return;
    if (outcome.outcome === "done") await store.put({ ...item, state: "sent", answer: outcome.answer });
    else
      await store.put({
        ...item,
        state: "refused",
        error: { code: outcome.error.code, message: outcome.error.message, status: outcome.error.status, details: outcome.error.details }
      });
    changed();
  }
}

/** One tab of the app flushes at a time (a second would only wait and find nothing left). */
function withLock(task: () => Promise<void>): Promise<void> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? locks.request("counter-outbox", task).then(() => undefined) : task();
}

/** Clears the sync results; a refused arrival stays, set aside, until the courier takes the parcel (`givenToCourier`). */
export async function dismissResults(): Promise<void> {
  for (const item of await items()) {
    if (item.state === "waiting") continue;
    if (isSetAside(item)) await store.put({ ...item, setAside: true });
    else await store.remove(item.id);
  }
  changed();
}

/** An arrival the server refused after a sync (another relay point's, unknown, full shelf): a parcel the shop holds. */
export const isSetAside = (item: OutboxItem) => item.kind === "arrival" && item.state === "refused" && item.queued;

export async function givenToCourier(id: string): Promise<void> {
  await store.remove(id);
  changed();
}

function askForBackgroundSync(): void {
  navigator.serviceWorker?.ready
    .then(registration =>
      (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register("outbox")
    )
    .catch(() => undefined);
}

/** The triggers: back online, back to the app, a timer, and the worker's Background Sync. */
export function startFlushing(): void {
  window.addEventListener("online", () => void flush());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void flush();
  });
  setInterval(() => {
    if (navigator.onLine) void flush();
  }, 30_000);
  navigator.serviceWorker?.addEventListener("message", event => {
    if ((event.data as { type?: string })?.type === "flush") void flush();
  });
  void flush();
}
