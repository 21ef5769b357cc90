import type { Logger } from "moleculer";
import { AppError } from "../../lib/errors";
import { toErrorResponse } from "../../lib/http-errors";
import { logUnavailable } from "../../services/gateway/http/unavailable-log";

function recordingLogger(): { logger: Logger; lines: { level: string; text: string }[] } {
  const lines: { level: string; text: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, text: args.map(String).join(" ") });
  const logger = {
    fatal: at("fatal"),
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    trace: at("trace")
  } as unknown as Logger;
  return { logger, lines };
}

/** The body the gateway answers for an error, as sendErrorJson hands it over. */
const answered = (err: unknown) => toErrorResponse(err).body;

describe("logUnavailable (the gateway's error log)", () => {
  test("a 503 on an API path is one WARN line naming the request, without a stack", () => {
    const { logger, lines } = recordingLogger();
    logUnavailable(
      logger,
      { method: "POST", url: "/api/partner/v1/parcels?x=1" },
      answered(new AppError("UNAVAILABLE", "The service is temporarily unavailable, please retry"))
    );
    expect(lines).toEqual([
      { level: "warn", text: "POST /api/partner/v1/parcels: 503 UNAVAILABLE: The service is temporarily unavailable, please retry" }
    ]);
  });

  test("a probe's 503 is its answer, not a log line", () => {
    const { logger, lines } = recordingLogger();
    for (const url of ["/readyz", "/healthz", "/startedz"])
      logUnavailable(logger, { method: "GET", url }, answered(new AppError("UNAVAILABLE", "Not ready: parcels unreachable")));
    expect(lines).toEqual([]);
  });

  test("other answers leave it to their own logging: a 4xx is the client's, a 500 is logged where it is answered", () => {
    const { logger, lines } = recordingLogger();
    logUnavailable(logger, { method: "GET", url: "/api/partner/v1/parcels/x" }, answered(new AppError("NOT_FOUND", "No such route")));
    logUnavailable(logger, { method: "GET", url: "/api/partner/v1/parcels" }, answered(new Error("boom")));
    expect(lines).toEqual([]);
  });
});
