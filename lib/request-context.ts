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

/**
 * Moleculer's own events ($services.changed, $node.connected, …) carry a context whose id is
 * nobody's request. A scope opened for one would also pass to every timer its handler starts: the
 * gateway's debounced route rebuild then logged the whole route table under a stale `[req=…]`
 * long after start-up. Those handlers run outside any request scope instead.
 */
function isInternalEvent(event: { name?: string }): boolean {
  return typeof event.name === "string" && event.name.startsWith("$");
}

export const RequestContextMiddleware: Middleware = {
  name: "RequestContext",
  localAction: next => withRequestId(next),
  localEvent: (next, event) => (isInternalEvent(event) ? next : withRequestId(next))
};
