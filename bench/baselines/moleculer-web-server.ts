import { ServiceBroker } from "moleculer";
import ApiGateway from "moleculer-web";
import { ACCESS_LOG_SETTINGS } from "../../services/gateway/access-log";
import { scriptInput } from "../scripts";
import type { BaselineBodies } from "./bodies";

/**
 * The framework's floor: a broker with one action per body and a moleculer-web alias for each,
 * nothing else (no authentication, rate limit, validation or database). Configured like the
 * gateway: the same LOG_LEVEL (warn by default: no line per request, as in production) and the
 * gateway's own moleculer-web logging settings, so that request logging costs both the same.
 */
const input = scriptInput<BaselineBodies>();
const health = JSON.parse(input.health) as object;
const parcel = JSON.parse(input.parcel) as object;

const broker = new ServiceBroker({
  nodeID: "bare-alias",
  logger: { type: "Console", options: { level: input.logLevel, formatter: "short", colors: false, moduleColors: false } }
});

broker.createService({
  name: "bare",
  actions: {
    health: () => health,
    parcel: () => parcel
  }
});

broker.createService({
  name: "api",
  mixins: [ApiGateway],
  settings: {
    ...ACCESS_LOG_SETTINGS,
    port: input.port,
    ip: "127.0.0.1",
    routes: [
      {
        path: "/api/partner/v1",
        mappingPolicy: "restrict",
        autoAliases: false,
        aliases: {
          "GET /health": "bare.health",
          "GET /parcels/:id": "bare.parcel"
        }
      }
    ]
  }
});

broker.start().then(() => process.stdout.write("listening\n"));
