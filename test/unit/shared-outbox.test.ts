import { ApiError } from "../../web/shared/api-errors";

/** What this test uses of web/shared/outbox.ts and idb.ts, typed for the browser (web/tsconfig.json), not this project. */
interface KeyedStore {
  put<T>(value: T): Promise<string>;
  remove(id: string): Promise<undefined>;
  all<T>(): Promise<T[]>;
}
interface Outbox {
  submit(kind: string, path: string, body: Record<string, unknown>, subject: string): Promise<unknown>;
  items(): Promise<unknown[]>;
}
type CreateOutbox = (options: {
  store: KeyedStore;
  post(path: string): Promise<unknown>;
  serverNow(): Date;
  stampOccurredAt: boolean;
  lockName: string;
  syncTag: string;
  stillRunningCodes?: readonly string[];
}) => Outbox;
// Loaded untyped (a require, not an import) so that this Node-typed project does not compile the browser's file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createOutbox } = require("../../web/shared/outbox") as { createOutbox: CreateOutbox };

/**
 * The apps' shared outbox (web/shared/outbox.ts): what a screen is told when it submits while
 * online. Two scans in a row (the second submitted while the first is being sent) both get their
 * answer, not "waiting"; a refusal for good is said at once, not left waiting.
 */

/** The outbox runs in a page: online, no Web Locks, no service worker here. */
beforeAll(() => {
  Object.defineProperty(globalThis, "navigator", { value: { onLine: true }, configurable: true });
});

function memoryStore(): KeyedStore {
  const rows = new Map<string, unknown>();
  return {
    async put<T>(value: T) {
      const id = (value as { id: string }).id;
      rows.set(id, structuredClone(value));
      return id;
    },
    async remove(id: string) {
      rows.delete(id);
      return undefined;
    },
    async all<T>() {
      return [...rows.values()].map(v => structuredClone(v) as T);
    }
  };
}

/** A server whose answers the test releases one by one, in the order asked. */
function heldServer(answer: (path: string) => unknown) {
  const pending: Array<() => void> = [];
  const post = (path: string) =>
    new Promise<unknown>((resolve, reject) =>
      pending.push(() => {
        try {
          resolve(answer(path));
        } catch (err) {
          reject(err);
        }
      })
    );
  /** Answers what has been asked so far, and what is asked meanwhile, until nothing is. */
  const answerAll = async () => {
    for (let rounds = 0; rounds < 50; rounds++) {
      await new Promise(resolve => setImmediate(resolve));
      pending.splice(0).forEach(release => release());
    }
  };
  return { post, answerAll };
}

const outboxWith = (post: (path: string) => Promise<unknown>, stillRunningCodes?: readonly string[]) =>
  createOutbox({
    store: memoryStore(),
    post,
    serverNow: () => new Date(),
    stampOccurredAt: true,
    lockName: "test-outbox",
    syncTag: "outbox",
    stillRunningCodes
  });

describe("the shared outbox, online", () => {
  test("a scan submitted while the one before is being sent gets its answer too (not 'waiting')", async () => {
    const server = heldServer(path => ({ path }));
    const outbox = outboxWith(server.post);
    const first = outbox.submit("arrive", "/relays/R/arrive", { pass: "P" }, "R");
    // The first is on the wire (its flush read the items before the second was written).
    await new Promise(resolve => setImmediate(resolve));
    const second = outbox.submit("return", "/relays/R/returns", { trackingNumber: "RP1" }, "RP1");
    await server.answerAll();
    await expect(first).resolves.toEqual({ outcome: "done", answer: { path: "/relays/R/arrive" } });
    await expect(second).resolves.toEqual({ outcome: "done", answer: { path: "/relays/R/returns" } });
    expect(await outbox.items()).toEqual([]);
  });

  test("a CONFLICT that is a refusal for good (the courier API's) is refused at once; where it means 'still running' it waits", async () => {
    const conflict = () => {
      throw new ApiError(409, "CONFLICT", "Parcel RP1 is DELIVERED, not a return");
    };
    const courier = heldServer(conflict);
    const refused = outboxWith(courier.post, ["IDEMPOTENCY_KEY_IN_USE"]).submit(
      "return",
      "/relays/R/returns",
      { trackingNumber: "RP1" },
      "RP1"
    );
    await courier.answerAll();
    await expect(refused).resolves.toEqual(
      expect.objectContaining({ outcome: "refused", error: expect.objectContaining({ code: "CONFLICT" }) })
    );

    const counter = heldServer(conflict);
    const waiting = outboxWith(counter.post).submit("return", "/relays/R/returns", { trackingNumber: "RP1" }, "RP1");
    await counter.answerAll();
    await expect(waiting).resolves.toEqual(expect.objectContaining({ outcome: "queued" }));
  });
});
