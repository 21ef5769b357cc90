import type { Logger } from "moleculer";
import { PROBE_PATHS } from "../../../lib/endpoint";
import type { ErrorBody } from "../../../lib/http-errors";
import { requestLogger } from "../../../lib/request-context";

const PROBES = new Set<string>(Object.values(PROBE_PATHS));

interface LoggedRequest {
  method?: string;
  url?: string;
  $ctx?: { requestID?: string | null };
}

/**
 * What the gateway logs of an expected error answer (gateway.service.ts, sendErrorJson, which
 * logs an unexpected 500 itself, with its request id). moleculer-web's own `errorHandler`, replaced,
 * logged every answer of 500 and above at ERROR with its stack: `npm run start:cluster` printed one
 * for each readiness poll while the services joined. A 503 (a service restarting or not joined yet,
 * a queue full) is expected in operation: one WARN line, no stack. A probe's 503 is its answer to
 * the orchestrator, polled every few seconds: no line at all. Any other answer: no line.
 */
export function logUnavailable(logger: Logger, req: LoggedRequest, body: ErrorBody): void {
  if (body.status !== 503) return;
  const path = (req.url ?? "/").split("?")[0];
  if (PROBES.has(path)) return;
  requestLogger(req.$ctx, logger).warn(`${req.method ?? "GET"} ${path}: 503 ${body.code}: ${body.message}`);
}
