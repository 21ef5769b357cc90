import { randomUUID } from "node:crypto";
import { Client } from "pg";
import relayDirectory from "../resources/relay-points.json";
import { encryptField } from "../lib/crypto";
import { s10CheckDigit } from "../lib/s10";
import { quotePrice } from "../services/parcels/tariff";

/**
 * Bulk parcels for the growth rows, written straight into the parcels schema of the distributed
 * system's database (migrations/parcels/001_parcels.sql): rows the API reads like its own — an
 * existing relay point, the tariff's price, PII sealed with the system's ENCRYPTION_KEY, valid S10
 * numbers. They carry the service indicator "BN" (bench), which the service never issues, so no
 * number can collide with one it draws ("RP"). Only `parcels.parcels` is filled: no history,
 * outbox or ledger rows, which no measured call reads.
 */
export interface SeedTarget {
  databaseUrl: string;
  encryptionKey: string;
  organizationId: string;
  mode: "live" | "sandbox";
}

const CHUNK = 5000;
const STATUSES = ["CREATED", "READY_FOR_PICKUP", "IN_TRANSIT", "AT_RELAY", "DELIVERED"] as const;
const RELAY_CODES = (relayDirectory as Array<{ code: string; active: boolean }>).filter(r => r.active).map(r => r.code);
const DAY_MS = 86_400_000;

/** Serials `fromSerial` … `fromSerial + count - 1`; answers the next free serial. */
export async function seedParcels(target: SeedTarget, fromSerial: number, count: number): Promise<number> {
  const client = new Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const name = encryptField("Destinataire Bench", target.encryptionKey);
    for (let start = 0; start < count; start += CHUNK) {
      const n = Math.min(CHUNK, count - start);
      const cols = {
        id: [] as string[],
        tracking: [] as string[],
        status: [] as string[],
        relay: [] as string[],
        phone: [] as string[],
        weight: [] as number[],
        cod: [] as (number | null)[],
        price: [] as number[],
        at: [] as string[]
      };
      for (let i = 0; i < n; i++) {
        const serialNo = fromSerial + start + i;
        const serial = String(serialNo).padStart(8, "0");
        const weightG = 100 + ((serialNo * 7919) % 29_900);
        const codAmountDzd = serialNo % 3 === 0 ? 1500 : null;
        cols.id.push(randomUUID());
        cols.tracking.push(`BN${serial}${s10CheckDigit(serial)}DZ`);
        cols.status.push(STATUSES[serialNo % STATUSES.length]);
        cols.relay.push(RELAY_CODES[serialNo % RELAY_CODES.length]);
        cols.phone.push(encryptField(`0555 ${serial.slice(2, 4)} ${serial.slice(4, 6)} ${serial.slice(6)}`, target.encryptionKey));
        cols.weight.push(weightG);
        cols.cod.push(codAmountDzd === null ? null : codAmountDzd * 100);
        cols.price.push(quotePrice({ weightG, codAmountDzd }).totalCentimes);
        // Older than anything the bench creates, spread over 90 days.
        cols.at.push(new Date(Date.now() - DAY_MS - ((serialNo * 104_729) % (90 * DAY_MS))).toISOString());
      }
      await client.query(
        `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
           recipient_name_enc, recipient_phone_enc, weight_g, cod_amount_centimes, cod_status, price_centimes, created_at, updated_at)
         SELECT id, $1, $2, tracking, status, relay, $3, phone, weight, cod,
                -- as migration parcels/006 sets it: COD parcels carry their COD status
                CASE WHEN cod IS NULL THEN NULL WHEN status = 'DELIVERED' THEN 'COLLECTED'
                     WHEN status IN ('RETURNED', 'LOST', 'DAMAGED', 'CANCELLED') THEN 'NOT_COLLECTED' ELSE 'PENDING' END,
                price, at, at
           FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::bigint[], $11::bigint[], $12::timestamptz[])
             AS s(id, tracking, status, relay, phone, weight, cod, price, at)`,
        [
          target.organizationId,
          target.mode,
          name,
          cols.id,
          cols.tracking,
          cols.status,
          cols.relay,
          cols.phone,
          cols.weight,
          cols.cod,
          cols.price,
          cols.at
        ]
      );
    }
    await client.query("ANALYZE parcels.parcels");
  } finally {
    await client.end();
  }
  return fromSerial + count;
}

export async function countParcels(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM parcels.parcels");
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}
