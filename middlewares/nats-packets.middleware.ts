import type { Middleware } from "moleculer";

/**
 * Packets this process has handed to its transporter and received from it (issue 31: NATS messages
 * per create in the bench). Moleculer counts the same in `moleculer.transporter.packets.*` only with
 * metrics enabled, whose per-action middleware would change the cost being measured; these are two
 * numbers bumped by the same transporter hooks. Heartbeats and discovery packets count too.
 */
const packets = { sent: 0, received: 0 };

export function natsPackets(): { sent: number; received: number } {
  return { sent: packets.sent, received: packets.received };
}

type Send = (topic: string, data: Buffer, meta: Record<string, unknown>) => Promise<void>;
type Receive = (cmd: string, data: Buffer, socket?: unknown) => Promise<void> | void;

const hooks = {
  name: "NatsPackets",
  transporterSend(next: Send): Send {
    return function counted(this: unknown, topic, data, meta) {
      packets.sent += 1;
      return next.call(this, topic, data, meta);
    };
  },
  transporterReceive(next: Receive): Receive {
    return function counted(this: unknown, cmd, data, socket) {
      packets.received += 1;
      return next.call(this, cmd, data, socket);
    };
  }
};

// Moleculer's typings declare these hooks as returning a promise; they return the wrapped function.
export const NatsPacketsMiddleware = hooks as unknown as Middleware;
