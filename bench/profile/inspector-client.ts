import type { Profiler } from "node:inspector";

/**
 * A minimal Chrome DevTools Protocol client over the inspector's WebSocket (Node's global
 * WebSocket): enough to start and stop V8's sampling profiler in another process around one load.
 */
export class InspectorClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", event => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  static connect(url: string): Promise<InspectorClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener("open", () => resolve(new InspectorClient(socket)), { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot connect to the inspector at ${url}`)), { once: true });
    });
  }

  send<T>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: v => resolve(v as T), reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Samples every `intervalUs` while `work` runs. */
  async profile(work: () => Promise<unknown>, intervalUs = 250): Promise<Profiler.Profile> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.send("Profiler.start");
    const outcome = await work().then(
      () => null,
      (err: unknown) => err
    );
    const { profile } = await this.send<{ profile: Profiler.Profile }>("Profiler.stop");
    if (outcome) throw outcome;
    return profile;
  }

  /** Evaluates an expression in the inspected process; answers its value (JSON-serialisable). */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = await this.send<{ result: { value?: T }; exceptionDetails?: { text: string } }>("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true
    });
    if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.text}`);
    return answer.result.value as T;
  }

  close(): void {
    this.socket.close();
  }
}
