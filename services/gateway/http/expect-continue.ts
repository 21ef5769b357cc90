import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits for `100 Continue` before it sends
 * its body. Node answers 100 at once unless the server listens to `checkContinue`; the gateway
 * does, so that 100 is sent only when the edge is about to read the body: after the credential,
 * the rate limit, the route, the scope, the declared length and the content type have passed. A
 * request refused before that gets its refusal instead, and never sends its body (decision 0030).
 */

const CONTINUE = /(?:^|,)\s*100-continue\s*(?:,|$)/i;
const continued = new WeakSet<ServerResponse>();

/** Hands requests that expect 100 to the server's usual request handlers, without answering 100. */
export function holdExpectContinue(server: Server): void {
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
}

/** Sends `100 Continue` if the client waits for it; called just before the body is read. */
export function continueIfExpected(req: IncomingMessage, res: ServerResponse): void {
  const expect = req.headers.expect;
  if (typeof expect !== "string" || !CONTINUE.test(expect) || continued.has(res) || res.headersSent) return;
  continued.add(res);
  res.writeContinue();
}
