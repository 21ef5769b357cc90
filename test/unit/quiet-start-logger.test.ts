import { Context, Logger, ServiceBroker } from "moleculer";
import { logFormatter } from "../../lib/log-format";
import { isStartUpChatter, QuietStartConsoleLogger } from "../../lib/quiet-start-logger";
import { requestLogger, splitRequestTag } from "../../lib/request-context";

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
  const format = logFormatter("json");
  const lineOf = (type: string, args: unknown[]) =>
    JSON.parse(String(format(type, args, { nodeID: "n", ns: "", mod: "probe" }, { printArgs: a => a })[0])) as {
      msg: string;
      requestId?: string;
    };

  test("an action and an event of a request write their lines with its id; a line outside any request carries none", async () => {
    const written: Array<{ type: string; args: unknown[] }> = [];
    const logger = Object.fromEntries(
      ["fatal", "error", "warn", "info", "debug", "trace"].map(type => [type, (...args: unknown[]) => written.push({ type, args })])
    ) as unknown as Logger;
    const broker = new ServiceBroker({ logger: false });
    broker.createService({
      name: "probe",
      actions: {
        async hello(ctx) {
          await new Promise(resolve => setTimeout(resolve, 1));
          requestLogger(ctx, logger).warn("in the action");
        }
      },
      events: {
        "probe.ping"(ctx: Context) {
          requestLogger(ctx, logger).info("in the event");
        }
      }
    });
    await broker.start();
    try {
      await broker.call("probe.hello", {}, { requestID: "req-1" });
      await broker.emit("probe.ping", {}, { requestID: "req-2" } as never);
      requestLogger(null, logger).info("outside");
      expect(written.map(w => lineOf(w.type, w.args))).toEqual([
        { ts: expect.any(Number), level: "warn", msg: "in the action", nodeID: "n", ns: "", mod: "probe", requestId: "req-1" },
        { ts: expect.any(Number), level: "info", msg: "in the event", nodeID: "n", ns: "", mod: "probe", requestId: "req-2" },
        { ts: expect.any(Number), level: "info", msg: "outside", nodeID: "n", ns: "", mod: "probe" }
      ]);
    } finally {
      await broker.stop();
    }
  });

  test("the tag is taken off the line's arguments, whatever they are", () => {
    let args: unknown[] = [];
    const tagged = requestLogger({ requestID: "r-9" }, { info: (...a: unknown[]) => (args = a) } as unknown as Logger);
    tagged.info("two", { parts: 2 });
    expect(splitRequestTag(args)).toEqual({ requestId: "r-9", args: ["two", { parts: 2 }] });
    expect(splitRequestTag(["plain"])).toEqual({ requestId: undefined, args: ["plain"] });
  });
});
