import type { Logger } from "moleculer";
import { PROBE_PATHS } from "../../../lib/endpoint";
import { toErrorResponse } from "../../../lib/http-errors";
import { requestLogger } from "../../../lib/request-context";

const PROBES = new Set<string>(Object.values(PROBE_PATHS));

interface LoggedRequest {
  method?: string;
  url?: string;
  $ctx?: { requestID?: string | null };
}

/**
 * What the gateway logs of an error answer, in place of moleculer-web's `errorHandler`, which
 * logs every answer of 500 and above at ERROR with its stack: `npm run start:cluster` printed one
 * for each readiness poll while the services joined. An unexpected error (500) is logged once, with
 * its request id, where it is answered (gateway.service.ts, sendErrorJson). A 503 (a service
 * restarting or not joined yet, a queue full) is expected in operation: one WARN line, no stack.
 * A probe's 503 is its answer to the orchestrator, polled every few seconds: no line at all.
 */
export function logUnavailable(logger: Logger, req: LoggedRequest, err: unknown): void {
  const { body } = toErrorResponse(err);
  if (body.status !== 503) return;
  const path = (req.url ?? "/").split("?")[0];
  if (PROBES.has(path)) return;
  requestLogger(req.$ctx, logger).warn(`${req.method ?? "GET"} ${path}: 503 ${body.code}: ${body.message}`);
}
