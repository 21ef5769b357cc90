import type { Logger } from "moleculer";

/**
 * The request id of a call travels with its context: Moleculer carries `ctx.requestID` (the
 * gateway's X-Request-Id) from node to node and tags every span with it. A log line about a
 * request says which one by being written through `requestLogger(ctx, this.logger)`: the line's
 * first argument is then a tag the formatter (lib/log-format.ts) takes off and prints as
 * `[req=…]` or `requestId`. No async scope is kept around the call: an AsyncLocalStorage costs a
 * promise hook on every promise of the process, for every request, for lines that are rarely
 * written (at LOG_LEVEL=warn, almost none).
 */
export class RequestTag {
  constructor(readonly requestId: string) {}
}

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/** A service's logger whose every line carries the request id of `ctx`; built only when a line is written. */
class RequestLogger {
  private readonly tag: RequestTag;

  constructor(
    private readonly logger: Logger,
    requestId: string
  ) {
    this.tag = new RequestTag(requestId);
  }

  private write(level: Level, args: unknown[]): void {
    this.logger[level](this.tag, ...args);
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
}

/**
 * The logger to write a line about the call of `ctx` with: `logger` itself when the call carries
 * no request id (a background pass, a call from the REPL).
 */
export function requestLogger(ctx: { requestID?: string | null } | null | undefined, logger: Logger): Logger {
  const requestId = ctx?.requestID;
  return requestId ? (new RequestLogger(logger, requestId) as Logger) : logger;
}

/** The request id a line was written for, and its arguments without the tag. */
export function splitRequestTag(args: unknown[]): { requestId: string | undefined; args: unknown[] } {
  const first = args[0];
  return first instanceof RequestTag ? { requestId: first.requestId, args: args.slice(1) } : { requestId: undefined, args };
}
