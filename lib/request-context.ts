import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, Middleware } from "moleculer";

/**
 * The request id of the call being handled, for log lines: Moleculer carries `ctx.requestID` (the
 * gateway's X-Request-Id) from node to node and tags every span with it, but a service's logger
 * knows nothing of the context. This middleware runs each action and event handler inside an
 * async scope holding it; the log formatter (lib/log-format.ts) reads it back.
 */
const scope = new AsyncLocalStorage<string>();

export function currentRequestId(): string | undefined {
  return scope.getStore();
}

function withRequestId<H extends (ctx: Context) => unknown>(handler: H): H {
  return ((ctx: Context) => (ctx.requestID ? scope.run(ctx.requestID, () => handler(ctx)) : handler(ctx))) as H;
}

export const RequestContextMiddleware: Middleware = {
  name: "RequestContext",
  localAction: next => withRequestId(next),
  localEvent: next => withRequestId(next)
};
