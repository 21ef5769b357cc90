import { ServiceBroker } from "moleculer";
import { isStartUpChatter, QuietStartConsoleLogger } from "../../lib/quiet-start-logger";
import { currentRequestId, RequestContextMiddleware } from "../../lib/request-context";

describe("the framework's start-up chatter (embedded mode)", () => {
  test.each([
    ["broker", "Moleculer v0.15.2 is starting..."],
    ["broker", "Namespace: relay"],
    ["broker", "Registered 16 middleware(s)."],
    ["registry", "'parcels' service is registered."],
    ["gateway", "API Gateway listening on http://0.0.0.0:3000"],
    ["parcels", "Service 'parcels' started."],
    ["parcels", "Waiting for service(s) 'wallet'..."],
    ["parcels", "Service(s) 'wallet' are available."]
  ])("%s: %s is chatter", (module, message) => expect(isStartUpChatter(module, [message])).toBe(true));

  test.each([
    ["broker", "✔ ServiceBroker with 8 service(s) started successfully in 9s."],
    ["auth", "schema auth: applied 001_organizations_and_keys.sql"],
    ["parcels", "creates cut short by a stop: 1 finished, 0 discarded, 0 left to the sweeper"],
    ["gateway", "<= 200 GET /api/partner/v1/health [+1 ms]"]
  ])("%s: %s is not", (module, message) => expect(isStartUpChatter(module, [message])).toBe(false));

  function printed(level: "info" | "debug"): string[] {
    const lines: string[] = [];
    const log = jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    try {
      const logger = new QuietStartConsoleLogger({ level, colors: false, moduleColors: false, formatter: "short" });
      logger.init({ broker: { nodeID: "n", namespace: "relay" } } as never);
      const handler = logger.getLogHandler({ nodeID: "n", ns: "relay", mod: "parcels" })!;
      handler("info", ["Service 'parcels' started."]);
      handler("info", ["schema parcels: applied 001_parcels.sql"]);
    } finally {
      log.mockRestore();
    }
    return lines;
  }

  test("gone at the default level, back at debug, written as debug", () => {
    expect(printed("info")).toEqual([expect.stringMatching(/INFO .*schema parcels: applied/)]);
    expect(printed("debug")).toEqual([
      expect.stringMatching(/DEBUG .*Service 'parcels' started\./),
      expect.stringMatching(/INFO .*schema parcels: applied/)
    ]);
  });
});

describe("request ids in log lines", () => {
  test("an action and an event of a request carry its id; Moleculer's own events and their timers do not", async () => {
    const seen: Record<string, string | undefined> = {};
    const broker = new ServiceBroker({ logger: false, middlewares: [RequestContextMiddleware] });
    broker.createService({
      name: "probe",
      actions: {
        hello() {
          seen.action = currentRequestId();
        }
      },
      events: {
        "probe.ping"() {
          seen.event = currentRequestId();
        },
        "$services.changed"() {
          seen.internal = currentRequestId();
          setTimeout(() => (seen.timer = currentRequestId()), 0);
        }
      }
    });
    await broker.start();
    try {
      await broker.call("probe.hello", {}, { requestID: "req-1" });
      await broker.emit("probe.ping", {}, { requestID: "req-2" } as never);
      broker.broadcastLocal("$services.changed", { localService: true });
      await new Promise(resolve => setTimeout(resolve, 20));
      expect(seen).toEqual({ action: "req-1", event: expect.any(String), internal: undefined, timer: undefined });
    } finally {
      await broker.stop();
    }
  });
});
