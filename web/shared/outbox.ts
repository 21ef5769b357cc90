import { ApiError, NetworkError } from "./api-errors";
import type { KeyedStore } from "./idb";

/**
 * The explicit outbox (docs/decisions/0033): every operation the server can accept later is
 * written to IndexedDB with its Idempotency-Key and the moment it was done (`occurredAt`) before
 * it is sent. Sent at once when there is a network; otherwise it waits, shown on screen, and goes
 * on reconnect, on return to the app, on a timer, or when a Background Sync wakes the page. The
 * same key on every try makes a re-send of an answer that was lost count once; an item leaves the
 * waiting state only on an answer. Each app makes its own (`createOutbox`) with its store, its way
 * of posting and its kinds of operation.
 */
export interface OutboxItem<K extends string = string> {
  /** Also its Idempotency-Key. */
  id: string;
  kind: K;
  path: string;
  body: Record<string, unknown>;
  /** What the user reads in the list: a tracking number, or how many. */
  subject: string;
  createdAt: string;
  /** When it was done, in the server's time (sent as `occurredAt` where the API takes it). */
  occurredAt: string;
  state: "waiting" | "sent" | "refused";
  /** Its first try got no answer: its result goes to the sync results the user reads later. */
  queued: boolean;
  /**
   * Kept after the user cleared the sync results (`keepAfterDismiss`): the counter app's refused
   * arrival, a parcel in the shop but not on the shelf, listed until the agent says it left.
   */
  setAside?: boolean;
  error?: { code: string; message: string; status: number; details: Record<string, unknown> };
  answer?: unknown;
}

/** `queued` carries the item's id: a screen follows it until it is sent or refused (onChange). */
export type Outcome = { outcome: "done"; answer: unknown } | { outcome: "refused"; error: ApiError } | { outcome: "queued"; id: string };

export interface OutboxOptions<K extends string> {
  /** Where the items live (openStore of web/shared/idb.ts, one database per app). */
  store: KeyedStore;
  /** POSTs `body` to the API's `path` with the key; throws ApiError on an answer that is an error, NetworkError on none. */
  post(path: string, body: Record<string, unknown>, idempotencyKey: string): Promise<unknown>;
  /** The server's time now (occurredAt is in the server's time). */
  serverNow(): Date;
  /** Whether the server takes `occurredAt` (an app never sends a field a server would refuse). */
  stampOccurredAt: boolean;
  /** The Web Lock that keeps two tabs of the app from flushing at once. */
  lockName: string;
  /** The Background Sync tag registered when an item waits (the app's worker wakes the page with it). */
  syncTag: string;
  /** The results kept, set aside, when the user clears the sync results. */
  keepAfterDismiss?(item: OutboxItem<K>): boolean;
  /**
   * The 409 codes that mean "the same key is still running" (no answer yet: the item waits). By
   * default IDEMPOTENCY_KEY_IN_USE and CONFLICT (the relay API's key still running, decision 0031);
   * an API whose CONFLICT is a refusal for good (the courier API: "not a return") leaves it out,
   * so that the refusal is said at once instead of waiting forever.
   */
  stillRunningCodes?: readonly string[];
}

export function toApiError(item: OutboxItem): ApiError {
  return new ApiError(item.error?.status ?? 409, item.error?.code ?? "UNKNOWN", item.error?.message ?? "", item.error?.details ?? {});
}

const STILL_RUNNING = ["IDEMPOTENCY_KEY_IN_USE", "CONFLICT"] as const;

/**
 * The answers that are no answer yet: a 5xx, a 429, and a 409 saying the same key is still running on the server (after a
 * lost answer). The item waits and goes again with its key, as with no network.
 */
function isTransient(err: ApiError, stillRunning: readonly string[]): boolean {
  return err.status >= 500 || err.status === 429 || (err.status === 409 && stillRunning.includes(err.code));
}

export function createOutbox<K extends string>(options: OutboxOptions<K>) {
  const { store } = options;
  type Item = OutboxItem<K>;
  const listeners = new Set<() => void>();

  /** Calls `listener` on every change of the outbox; the function returned stops it. */
  function onChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  function changed(): void {
    listeners.forEach(listener => listener());
  }

  async function items(): Promise<Item[]> {
    const all = await store.all<Item>();
    return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async function send(item: Item): Promise<Outcome> {
    try {
      const answer = await options.post(item.path, item.body, item.id);
      return { outcome: "done", answer };
    } catch (err) {
      if (err instanceof ApiError && !isTransient(err, options.stillRunningCodes ?? STILL_RUNNING))
        return { outcome: "refused", error: err };
      if (err instanceof ApiError || err instanceof NetworkError) return { outcome: "queued", id: item.id };
      throw err;
    }
  }

  /**
   * Records an operation, then sends what waits (older operations first, so that the server sees
   * them in the order they were done). `stamped` adds `occurredAt` (server time, fixed now: a
   * re-send must carry the very same body under its key). An operation answered at once leaves the
   * outbox; one that waits stays, and its result joins the sync results when it goes.
   */
  async function submit(kind: K, path: string, body: Record<string, unknown>, subject: string, stamped = true): Promise<Outcome> {
    const occurredAt = options.serverNow().toISOString();
    const item: Item = {
      id: crypto.randomUUID(),
      kind,
      path,
      body: stamped && options.stampOccurredAt ? { ...body, occurredAt } : body,
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

  let flushing: Promise<void> | null = null;
  /** Flushes asked, and asked before the last pass began (that pass read every item written before them). */
  let asked = 0;
  let covered = 0;

  /**
   * Sends what waits, oldest first, one at a time; stops at the first that gets no answer. Asked
   * while a flush runs (two scans in a row: the second's submit comes while the first is sent),
   * the running one passes again, or a new one starts if it was ending, before this resolves: the
   * item just written is sent now and its screen gets the answer, not "waiting" while online.
   */
  function flush(): Promise<void> {
    const mine = ++asked;
    flushing ??= withLock(async () => {
      while (covered < asked) {
        const upTo = asked;
        await flushNow();
        covered = upTo;
      }
    }).finally(() => {
      flushing = null;
      changed();
    });
    return flushing.then(() => (covered >= mine ? undefined : flush()));
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
    return locks ? locks.request(options.lockName, task).then(() => undefined) : task();
  }

  /** Clears the sync results; those the app keeps (`keepAfterDismiss`) stay, set aside. */
  async function dismissResults(): Promise<void> {
    for (const item of await items()) {
      if (item.state === "waiting") continue;
      if (options.keepAfterDismiss?.(item)) await store.put({ ...item, setAside: true });
      else await store.remove(item.id);
    }
    changed();
  }

  /** Removes one item (the counter app: a set-aside parcel the courier took). */
  async function remove(id: string): Promise<void> {
    await store.remove(id);
    changed();
  }

  function askForBackgroundSync(): void {
    navigator.serviceWorker?.ready
      .then(registration =>
        (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(options.syncTag)
      )
      .catch(() => undefined);
  }

  /** The triggers: back online, back to the app, a timer, and the worker's Background Sync. */
  function startFlushing(): void {
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

  return { onChange, items, submit, flush, dismissResults, remove, startFlushing };
}
