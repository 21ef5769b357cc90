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

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

/**
 * The logger to write a line about the call of `ctx` with: each line carries the call's request
 * id; `logger` itself when the call carries none (a background pass, a call from the REPL).
 */
export function requestLogger(ctx: { requestID?: string | null } | null | undefined, logger: Logger): Logger {
  const requestId = ctx?.requestID;
  if (!requestId) return logger;
  const tag = new RequestTag(requestId);
  const tagged = {} as Logger;
  for (const level of LEVELS) tagged[level] = (...args: unknown[]) => logger[level](tag, ...args);
  return tagged;
}

/** The request id a line was written for, and its arguments without the tag. */
export function splitRequestTag(args: unknown[]): { requestId: string | undefined; args: unknown[] } {
  const first = args[0];
  return first instanceof RequestTag ? { requestId: first.requestId, args: args.slice(1) } : { requestId: undefined, args };
}
