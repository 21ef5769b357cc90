import { ServiceBroker } from "moleculer";
import type { Span } from "moleculer";
import { loadConfig } from "../../lib/config";
import { logFormatter } from "../../lib/log-format";
import { requestLogger } from "../../lib/request-context";
import { brokerOptions } from "../../moleculer.config";

/**
 * Issue 13: the request id (the gateway's X-Request-Id, `ctx.requestID`) is a tag of every span of
 * the request, in every service it reaches, and is printed in every log line written meanwhile.
 */
describe("request id in spans and log lines", () => {
  const lines: string[] = [];
  let broker: ServiceBroker;
  const spans: Span[] = [];

  beforeAll(async () => {
    const config = loadConfig({ TRACING_EXPORTER: "console", LOG_FORMAT: "json", LOG_LEVEL: "info", SERVICES: "auth" });
    const options = brokerOptions(config);
    // The production logger (Console, our JSON formatter); its output is read from the console.
    for (const stream of ["log", "info", "warn", "error"] as const) {
      jest.spyOn(console, stream).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    broker = new ServiceBroker({ ...options, nodeID: "observability-test" });
    broker.createService({
      name: "front",
      actions: {
        async handle(ctx) {
          requestLogger(ctx, this.logger).info("front handles it");
          return ctx.call("back.work");
        }
      }
    });
    broker.createService({
      name: "back",
      actions: {
        async work(ctx) {
          await new Promise(r => setTimeout(r, 5));
          requestLogger(ctx, this.logger).info("back works on it");
          return "done";
        }
      }
    });
    await broker.start();
    // Captures what the configured exporter would receive.
    (broker.tracer as unknown as { exporter: object[] }).exporter = [
      { spanStarted: () => undefined, spanFinished: (span: Span) => spans.push(span) }
    ];
  });

  afterAll(async () => {
    await broker.stop();
    jest.restoreAllMocks();
  });

  test("every span carries the request id as its requestID tag", async () => {
    expect(await broker.call("front.handle", {}, { requestID: "req-abc-123" })).toBe("done");
    const names = spans.map(s => s.name).sort();
    expect(names).toEqual(["action 'back.work'", "action 'front.handle'"]);
    for (const span of spans) expect(span.tags.requestID).toBe("req-abc-123");
  });

  test("every log line written about the request (requestLogger) carries its id; lines outside one do not", async () => {
    lines.length = 0;
    await broker.call("front.handle", {}, { requestID: "req-def-456" });
    broker.logger.info("outside any request");
    const parsed = lines.filter(line => line.startsWith("{")).map(line => JSON.parse(line) as { msg: string; requestId?: string });
    expect(parsed.find(l => l.msg === "front handles it")?.requestId).toBe("req-def-456");
    expect(parsed.find(l => l.msg === "back works on it")?.requestId).toBe("req-def-456");
    expect(parsed.find(l => l.msg === "outside any request")?.requestId).toBeUndefined();
  });

  test("the short format shows it as [req=…]", () => {
    const [time, level, where, message] = logFormatter("short")(
      "info",
      ["hello"],
      { nodeID: "n", ns: "", mod: "auth" },
      { printArgs: a => a }
    );
    expect([typeof time, level, where, message]).toEqual(["string", "INFO ", "AUTH:", "hello"]);
  });
});

describe("tracing exporter from the environment", () => {
  test("off by default; console; zipkin and jaeger in Zipkin's format to TRACING_URL", () => {
    expect(brokerOptions(loadConfig({})).tracing).toEqual({ enabled: false });
    expect(brokerOptions(loadConfig({ TRACING_EXPORTER: "console" })).tracing).toMatchObject({
      enabled: true,
      exporter: { type: "Console" }
    });
    for (const exporter of ["zipkin", "jaeger"]) {
      expect(
        brokerOptions(loadConfig({ TRACING_EXPORTER: exporter, TRACING_URL: "http://collector:9411", TRACING_SAMPLE_RATE: "0.25" })).tracing
      ).toMatchObject({
        enabled: true,
        exporter: { type: "Zipkin", options: { baseURL: "http://collector:9411" } },
        sampling: { rate: 0.25 }
      });
    }
  });
});
