import { randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { NatsPacketsMiddleware } from "../../middlewares/nats-packets.middleware";
import { ProcessTraffic, TrafficMixin } from "../../mixins/traffic.mixin";
import { describeWithServers, natsBrokerOptions } from "../helpers/servers";

/** Two nodes on NATS in one process: both count into the process's one pair of counters. */
describeWithServers(["nats"], "NATS packets counted by the transporter hooks (bench: messages per create)", () => {
  const namespace = `packets-${randomUUID()}`;
  // No heartbeats during the test: only the packets the call makes are counted between readings.
  const options = (nodeID: string) =>
    natsBrokerOptions(namespace, nodeID, { heartbeatInterval: 3600, middlewares: [NatsPacketsMiddleware] });
  const caller = new ServiceBroker(options("caller"));
  const callee = new ServiceBroker(options("callee"));
  callee.createService({ name: "counted", mixins: [TrafficMixin] });

  beforeAll(async () => {
    await Promise.all([caller.start(), callee.start()]);
    await caller.waitForServices(["counted"], 10_000);
  });
  afterAll(() => Promise.all([caller.stop(), callee.stop()]));

  test("a remote call is one request and one response, each sent once and received once", async () => {
    const read = () => caller.call<ProcessTraffic, object>("counted.processTraffic", {}, { nodeID: "callee" });
    const first = await read();
    const second = await read();
    // Between the two answers: the first response, then the second request, each sent and received.
    expect(second.natsSent - first.natsSent).toBe(2);
    expect(second.natsReceived - first.natsReceived).toBe(2);
  });
});
