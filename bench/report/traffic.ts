import { ServiceBroker } from "moleculer";
import type { ProcessTraffic } from "../../mixins/traffic.mixin";

/**
 * Round trips to the database and NATS messages per create, by process (issue 31): every service
 * answers `<service>.processTraffic` with its process's counters (mixins/traffic.mixin.ts), read by
 * one throw-away broker on the system's NATS namespace before and after a create row.
 */

/** Counters by process, named after the (first) service it runs. */
export type Traffic = Record<string, ProcessTraffic>;

export interface TrafficReader {
  read(): Promise<Traffic>;
  close(): Promise<void>;
}

export async function openTrafficReader(natsUrl: string, namespace: string): Promise<TrafficReader> {
  const broker = new ServiceBroker({ nodeID: `bench-traffic-${process.pid}`, namespace, transporter: natsUrl as "NATS", logger: false });
  await broker.start();
  await broker.waitForServices(["gateway", "parcels", "wallet"], 10_000);
  return {
    async read() {
      const byNode = new Map<string, string>();
      for (const s of broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true })) {
        const nodeID = s.nodeID ?? "";
        if (s.name && nodeID !== broker.nodeID && !byNode.has(nodeID)) byNode.set(nodeID, s.name);
      }
      const entries = await Promise.all(
        [...byNode].map(
          async ([nodeID, name]) => [name, await broker.call<ProcessTraffic, object>(`${name}.processTraffic`, {}, { nodeID })] as const
        )
      );
      return Object.fromEntries(entries);
    },
    close: () => broker.stop()
  };
}

/** What each process sent and received between two readings. */
export function trafficSince(before: Traffic, after: Traffic): Traffic {
  const zero: ProcessTraffic = { statements: 0, natsSent: 0, natsReceived: 0 };
  return Object.fromEntries(
    Object.entries(after).map(([name, a]) => {
      const b = before[name] ?? zero;
      return [
        name,
        { statements: a.statements - b.statements, natsSent: a.natsSent - b.natsSent, natsReceived: a.natsReceived - b.natsReceived }
      ];
    })
  );
}

const per = (n: number, creates: number) => (n / creates).toFixed(2);

/**
 * "round trips / create: parcels 4.27 · wallet 3.00 · … (total 7.27)" and "NATS messages / create:
 * gateway 2.00 (1.00 out, 1.00 in) · … (total sent 4.05)": processes that did nothing are left out.
 * A message counts once as sent by one process and once as received by each that gets it.
 */
export function trafficLines(title: string, traffic: Traffic, creates: number): string[] {
  if (creates <= 0) return [`${title}: no parcel created, no traffic per create`];
  const rows = Object.entries(traffic);
  const statements = rows.filter(([, t]) => t.statements > 0).sort((a, b) => b[1].statements - a[1].statements);
  const nats = rows
    .filter(([, t]) => t.natsSent + t.natsReceived > 0)
    .sort((a, b) => b[1].natsSent + b[1].natsReceived - (a[1].natsSent + a[1].natsReceived));
  const totalStatements = rows.reduce((sum, [, t]) => sum + t.statements, 0);
  const totalSent = rows.reduce((sum, [, t]) => sum + t.natsSent, 0);
  return [
    `${title}, ${creates.toLocaleString("en-US")} parcels created:`,
    `  round trips / create: ${statements.map(([n, t]) => `${n} ${per(t.statements, creates)}`).join(" · ")} (total ${per(totalStatements, creates)})`,
    `  NATS messages / create: ${nats
      .map(
        ([n, t]) =>
          `${n} ${per(t.natsSent + t.natsReceived, creates)} (${per(t.natsSent, creates)} out, ${per(t.natsReceived, creates)} in)`
      )
      .join(" · ")} (total sent ${per(totalSent, creates)})`
  ];
}
