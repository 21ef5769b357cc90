import { randomUUID } from "node:crypto";
import { Context, ServiceBroker } from "moleculer";
import { CoalescedSendsMiddleware } from "../../middlewares/coalesced-sends.middleware";
import { describeWithServers, natsBrokerOptions } from "../helpers/servers";

/** Two nodes on the real NATS, both handing their packets over a turn at a time. */
describeWithServers(["nats"], "packets coalesced per event-loop turn, on NATS", () => {
  const namespace = `coalesced-${randomUUID()}`;
  const options = (nodeID: string) => natsBrokerOptions(namespace, nodeID, { middlewares: [CoalescedSendsMiddleware] });
  const caller = new ServiceBroker(options("caller"));
  const callee = new ServiceBroker(options("callee"));
  const received: number[] = [];
  const departures: { nodeID: string; unexpected: boolean }[] = [];
  callee.createService({
    name: "echo",
    actions: { say: (ctx: Context<{ n: number; blob?: string }>) => ctx.params.n },
    events: { "echo.counted": (ctx: Context<{ n: number }>) => void received.push(ctx.params.n) }
  });
  caller.createService({
    name: "watcher",
    events: {
      "$node.disconnected": (ctx: Context<{ node: { id: string }; unexpected: boolean }>) =>
        void departures.push({ nodeID: ctx.params.node.id, unexpected: ctx.params.unexpected })
    }
  });

  beforeAll(async () => {
    await Promise.all([caller.start(), callee.start()]);
    await caller.waitForServices(["echo"], 10_000);
  });
  afterAll(() => Promise.all([caller.stop(), callee.stop()]));

  test("events sent in one burst arrive all, in the order sent", async () => {
    for (let n = 0; n < 300; n++) void caller.emit("echo.counted", { n });
    const deadline = Date.now() + 10_000;
    while (received.length < 300 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
    expect(received).toEqual(Array.from({ length: 300 }, (_, n) => n));
  });

  test("concurrent calls each get their own answer", async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => caller.call<number, { n: number }>("echo.say", { n })));
    expect(answers).toEqual(Array.from({ length: 200 }, (_, n) => n));
  });

  test("a packet over the server's max_payload fails its own call, and the next calls go through", async () => {
    const blob = "x".repeat(2 * 1024 * 1024);
    const [big, small] = await Promise.allSettled([
      caller.call("echo.say", { n: 1, blob }),
      caller.call<number, { n: number }>("echo.say", { n: 2 })
    ]);
    expect(big.status).toBe("rejected");
    expect(small).toEqual({ status: "fulfilled", value: 2 });
    expect(await caller.call("echo.say", { n: 3 })).toBe(3);
  });

  test("a stopping node's DISCONNECT is handed over before its transporter closes", async () => {
    await callee.stop();
    const deadline = Date.now() + 5_000;
    while (departures.length === 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
    // Announced, not found out by a missed heartbeat.
    expect(departures).toEqual([{ nodeID: "callee", unexpected: false }]);
  });
});
