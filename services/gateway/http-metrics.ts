import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import { countMetric, RELAY_METRICS } from "../../lib/metrics";

interface RoutedRequest extends IncomingMessage {
  /** moleculer-web keeps the path as sent here; `url` loses the route's prefix on the way. */
  originalUrl?: string;
  $alias?: { fullPath: string; route?: { opts?: { api?: string } } };
}

/** Which limit a 429 on an API comes from (see the edge's step 2). */
const LIMIT_OF_API: Record<string, string> = { partner: "key", labels: "label-downloads", public: "public-tracking" };

/**
 * Counts every answered request by method, route pattern (never the raw path: ids would make one
 * series per parcel) and status, and every 429 by the limit that refused it. A request refused
 * before its route was resolved (a 401 or 429 at the edge, a 404) is looked up again here.
 */
export function countHttpRequests(
  server: Server,
  broker: ServiceBroker,
  resolve: (url: string, method: string) => RoutedRequest["$alias"] | undefined
): void {
  server.on("request", (req: RoutedRequest, res: ServerResponse) => {
    res.once("finish", () => {
      const method = req.method ?? "GET";
      const alias = req.$alias ?? resolve((req.originalUrl ?? req.url ?? "/").split("?")[0], method);
      const route = alias?.fullPath ?? "unmatched";
      countMetric(broker, RELAY_METRICS.httpRequests, { method, route, status: String(res.statusCode) });
      if (res.statusCode === 429) {
        countMetric(broker, RELAY_METRICS.rateLimitRejections, { limit: LIMIT_OF_API[alias?.route?.opts?.api ?? ""] ?? "other" });
      }
    });
  });
}
