import type { Bench } from "../context";
import type { Measured, Row } from "../report/results";
import { countParcels, seedParcels } from "../seed";
import { startDistributed } from "../systems/distributed";
import { CREATE_BODY, createMerchant, createParcel, Merchant } from "../systems/merchant";
import type { RunningSystem } from "../systems/system";
import { captureBodies } from "./bodies";
import { listRow } from "./list-row";
import { constantRateRow, createRow, getRow, healthRow, partnerRequest, WIDE_CONNECTIONS } from "./partner-rows";
import { webhookRow } from "./webhook-row";
import { withGroupSizes } from "../report/group-sizes-row";
import { withTraffic } from "../report/traffic-row";

/** Enough for every parcel a full run creates: growth steps and the constant-rate runs. */
const FUNDS_DZD = 60_000_000;
const GROWTH_MIN_RATIO = 0.85;

const short = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** Tops the parcels table up to `size` rows with bulk inserts (see seed.ts); answers the count. */
async function seedTo(bench: Bench, system: RunningSystem, merchant: Merchant, size: number, serial: { next: number }): Promise<number> {
  const databaseUrl = system.databaseUrl as string;
  const current = await countParcels(databaseUrl);
  if (current < size) {
    bench.progress.next(`seeding ${(size - current).toLocaleString("en-US")} parcels (bulk SQL) to reach ${short(size)}`);
    serial.next = await seedParcels(
      { databaseUrl, encryptionKey: system.encryptionKey as string, organizationId: merchant.organizationId, mode: "live" },
      serial.next,
      size - current
    );
  }
  return countParcels(databaseUrl);
}

function growthRow(bench: Bench, what: string, rows: Row[]): void {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || first === last) return;
  const reference: Measured = { ...first.ours, name: `same at ${first.id.split(".").pop()}` };
  bench.addRow({
    id: `growth.${what}`,
    title: `growth: ${last.title.replace(/ — .*$/, "")}`,
    unit: last.unit,
    ours: last.ours,
    baselines: [reference],
    target: { kind: "ratio", baseline: reference.name, min: GROWTH_MIN_RATIO }
  });
}

/**
 * The distributed system (seven processes on NATS, PostgreSQL, Redis), then the growth steps: at
 * each size the list (and its SQL through pg), then creates (against pgbench).
 */
export async function distributedPhase(bench: Bench): Promise<void> {
  bench.progress.next("starting the distributed system (7 processes, throw-away database)");
  const system = await startDistributed({ logLevel: bench.options.logLevel, logDir: bench.logDir });
  bench.onClose(() => system.stop());
  try {
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Réparti SARL", FUNDS_DZD);
    const parcel = await createParcel(system.baseUrl, merchant.liveKey);
    const servers = await bench.baselines(await captureBodies(system, merchant, parcel.id));
    const serial = { next: 1 };
    const lists: Row[] = [];
    const creates: Row[] = [];
    const largest = Math.max(...bench.options.growthSizes);

    for (const [step, size] of bench.options.growthSizes.entries()) {
      const stored = await seedTo(bench, system, merchant, size, serial);
      lists.push(
        await listRow(bench, system, merchant, {
          id: `list.distributed.${short(size)}`,
          stored,
          minRatioOfSql: size === largest ? 0.5 : null
        })
      );
      if (step === 0) {
        const health = await healthRow(bench, system, merchant, servers, 0.3);
        const get = await getRow(bench, system, merchant, parcel.id, servers, null);
        if (!bench.options.short) {
          await constantRateRow(bench, system, health, partnerRequest(system, merchant.liveKey, "GET", "/health"), 20);
          await constantRateRow(bench, system, get, partnerRequest(system, merchant.liveKey, "GET", `/parcels/${parcel.id}`), 20);
        }
      }
      const create = await withTraffic(bench, system, `create traffic, ${short(size)} stored`, () =>
        withGroupSizes(bench, system, `create groups, ${short(size)} stored`, () =>
          createRow(bench, system, merchant, {
            id: `create.distributed.${short(size)}`,
            title: `POST /parcels, ${stored.toLocaleString("en-US")} stored — distributed`,
            minRatioOfPgbench: 0.2
          })
        )
      );
      creates.push(create);
      if (step === 0) {
        await withTraffic(bench, system, `create traffic, ${WIDE_CONNECTIONS} connections`, () =>
          withGroupSizes(bench, system, `create groups, ${WIDE_CONNECTIONS} connections`, () =>
            createRow(bench, system, merchant, {
              id: `create.distributed.${short(size)}.c${WIDE_CONNECTIONS}`,
              title: `POST /parcels, ${stored.toLocaleString("en-US")} stored, ${WIDE_CONNECTIONS} connections — distributed`,
              minRatioOfPgbench: null,
              connections: WIDE_CONNECTIONS
            })
          )
        );
      }
      if (step === 0 && !bench.options.short) {
        await constantRateRow(bench, system, create, partnerRequest(system, merchant.liveKey, "POST", "/parcels", CREATE_BODY), 100);
        await webhookRow(bench, system, merchant);
      }
    }
    growthRow(bench, "list", lists);
    growthRow(bench, "create", creates);
  } finally {
    bench.progress.next("stopping the distributed system, dropping its database");
    await system.stop();
  }
}
