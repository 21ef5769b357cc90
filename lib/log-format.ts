import { splitRequestTag } from "./request-context";

type Bindings = { nodeID: string; ns: string; mod: string; svc?: string };
type PrintArgs = (args: unknown[]) => unknown[];

/**
 * Moleculer's "short" and "json" log lines, plus the request id of a line written through
 * `requestLogger(ctx, …)` (see request-context.ts): `[req=…]` after the module, or a `requestId`
 * field in JSON. Lines outside any request (start-up, background passes) carry none.
 */
export function logFormatter(format: "short" | "json") {
  return function (type: string, given: unknown[], bindings: Bindings, { printArgs }: { printArgs: PrintArgs }): unknown[] {
    const { requestId, args } = splitRequestTag(given);
    if (format === "json") {
      return [
        JSON.stringify({
          ts: Date.now(),
          level: type,
          msg: printArgs(args).join(" "),
          ...bindings,
          ...(requestId ? { requestId } : {})
        })
      ];
    }
    const time = new Date().toISOString().substring(11);
    const where = `${bindings.mod.toUpperCase()}${requestId ? ` [req=${requestId}]` : ""}:`;
    return [`[${time}]`, type.toUpperCase().padEnd(5), where, ...printArgs(args)];
  };
}
