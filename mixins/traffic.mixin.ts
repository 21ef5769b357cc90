import type { ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { statementsSent } from "../lib/db/statement-count";
import { natsPackets } from "../middlewares/nats-packets.middleware";

/** What one process has sent since it started: database statements and transporter packets. */
export interface ProcessTraffic {
  statements: number;
  natsSent: number;
  natsReceived: number;
}

/**
 * `<service>.processTraffic`, in every service (through ConfigMixin and DbMixin): the bench reads it
 * before and after a create row to print round trips and NATS messages per create by process
 * (bench/report/traffic.ts). The counters are the process's, whichever of its services answers.
 */
export const TrafficMixin: Partial<ServiceSchema> = {
  actions: {
    // call <service>.processTraffic
    processTraffic: defineAction({
      visibility: "public",
      handler(): ProcessTraffic {
        const nats = natsPackets();
        return { statements: statementsSent(), natsSent: nats.sent, natsReceived: nats.received };
      }
    })
  }
};
