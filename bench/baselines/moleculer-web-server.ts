import { ServiceBroker } from "moleculer";
import ApiGateway from "moleculer-web";
import { scriptInput } from "../scripts";
import type { BaselineBodies } from "./bodies";

/**
 * The framework's floor: a broker with one action per body and a moleculer-web alias for each,
 * nothing else (no authentication, rate limit, validation or database). The logger has the same
 * level as the system under test, so request logging costs both the same.
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
