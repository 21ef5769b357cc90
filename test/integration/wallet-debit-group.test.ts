import { randomUUID } from "node:crypto";
import { migrateSchema } from "../../lib/db/migrate";
import { debitGroup, type DebitItem } from "../../services/wallet/debit-group.store";
import { refundForParcel } from "../../services/wallet/wallet.store";
import { openThrowAwayPglite, twoPoolsOnOneDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * A debit group is one statement that is its own transaction (wallet.debit_group, decision 0044).
 * What its rules rest on, on the PostgreSQL server with two connections: the parcels' prior debits
 * and refunds are read after the parcels' locks are held, so what another transaction committed
 * while the group waited for them is seen.
 */
describeWithServers(["postgres"], "a wallet debit group on the PostgreSQL server", () => {
  const pools = twoPoolsOnOneDatabase("wallet");

  async function account(balanceCentimes: number): Promise<string> {
    const organizationId = randomUUID();
    await pools.a.query("INSERT INTO wallet.accounts (organization_id, mode, balance_centimes) VALUES ($1, 'live', $2)", [
      organizationId,
      balanceCentimes
    ]);
    return organizationId;
  }

  const balanceOf = async (organizationId: string) =>
    Number(
      (
        await pools.a.query<{ b: string }>("SELECT balance_centimes AS b FROM wallet.accounts WHERE organization_id = $1", [organizationId])
      )[0].b
    );

  const entriesOf = (parcelId: string) =>
    pools.a.query<{ kind: string; amount: string }>(
      "SELECT kind, amount_centimes AS amount FROM wallet.ledger WHERE parcel_id = $1 ORDER BY seq",
      [parcelId]
    );

  /** Until the group's statement waits for a lock (behind the transaction that holds the parcel). */
  async function groupIsWaiting(): Promise<void> {
    for (;;) {
      const [{ waiting }] = await pools.a.query<{ waiting: number }>(
        "SELECT count(*)::integer AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%wallet.debit_group(%'"
      );
      if (waiting > 0) return;
      await new Promise(resolve => setTimeout(resolve, 10));
    }
  }

  test("a refund committed while the group waited for the parcel's lock is seen: that debit is refused, nothing is taken", async () => {
    const organizationId = await account(100_000);
    const parcelId = randomUUID();
    const other = randomUUID();
    const item = (id: string): DebitItem => ({ parcelId: id, organizationId, mode: "live", amountCentimes: 40_000 });

    let group: Promise<Awaited<ReturnType<typeof debitGroup>>> | undefined;
    await pools.a.transaction(async tx => {
      // The parcel abandoned before its debit: the refund's tombstone, under the parcel's lock.
      await refundForParcel(tx, { parcelId, organizationId, mode: "live" }, "abandoned");
      group = debitGroup(pools.b, [item(parcelId), item(other)]);
      await groupIsWaiting();
    });
    const [abandoned, paid] = await group!;

    expect(abandoned.ok).toBe(false);
    expect(!abandoned.ok && (abandoned.error as { type?: string }).type).toBe("CONFLICT");
    expect(paid).toEqual({ ok: true, value: { amountCentimes: 40_000, balanceAfterCentimes: 60_000 } });
    expect(await entriesOf(parcelId)).toEqual([{ kind: "refund", amount: "0" }]);
    expect(await balanceOf(organizationId)).toBe(60_000);
  });

  test("groups racing over the same parcels on two connections debit each parcel once, and every answer is that debit", async () => {
    const organizationId = await account(1_000_000);
    const parcels = Array.from({ length: 6 }, () => randomUUID());
    const item = (id: string): DebitItem => ({ parcelId: id, organizationId, mode: "live", amountCentimes: 10_000 });
    // Each group takes the parcels in its own order; half of them on each connection.
    const groups = Array.from({ length: 12 }, (_, g) => {
      const order = parcels.map((_, i) => parcels[(i + g) % parcels.length]);
      return debitGroup(g % 2 === 0 ? pools.a : pools.b, (g % 3 === 0 ? order.reverse() : order).map(item));
    });
    const answers = await Promise.all(groups);

    for (const parcelId of parcels) expect(await entriesOf(parcelId)).toEqual([{ kind: "debit", amount: "10000" }]);
    expect(await balanceOf(organizationId)).toBe(1_000_000 - 6 * 10_000);
    const byParcel = new Map<string, string>();
    answers.forEach((outcomes, g) =>
      outcomes.forEach((outcome, i) => {
        expect(outcome.ok).toBe(true);
        const order = parcels.map((_, k) => parcels[(k + g) % parcels.length]);
        const parcelId = (g % 3 === 0 ? order.reverse() : order)[i];
        const said = JSON.stringify(outcome.ok && outcome.value);
        expect(byParcel.get(parcelId) ?? said).toBe(said);
        byParcel.set(parcelId, said);
      })
    );
    // The six balances after each debit are the six steps down from 1,000,000, each told once.
    expect([...byParcel.values()].map(v => JSON.parse(v).balanceAfterCentimes).sort((x, y) => y - x)).toEqual([
      990_000, 980_000, 970_000, 960_000, 950_000, 940_000
    ]);
  });

  test("each item decided in the order given: a parcel twice is debited once, what the balance cannot cover is refused, the rest is paid", async () => {
    const organizationId = await account(50_000);
    const [p1, p2, p3] = [randomUUID(), randomUUID(), randomUUID()];
    const item = (parcelId: string, amountCentimes: number): DebitItem => ({ parcelId, organizationId, mode: "live", amountCentimes });
    const outcomes = await debitGroup(pools.a, [item(p1, 30_000), item(p1, 30_000), item(p2, 30_000), item(p3, 20_000)]);

    expect(outcomes[0]).toEqual({ ok: true, value: { amountCentimes: 30_000, balanceAfterCentimes: 20_000 } });
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(!outcomes[2].ok && (outcomes[2].error as { type?: string }).type).toBe("INSUFFICIENT_BALANCE");
    expect(outcomes[3]).toEqual({ ok: true, value: { amountCentimes: 20_000, balanceAfterCentimes: 0 } });
    expect(await balanceOf(organizationId)).toBe(0);
    const unknownWallet = await debitGroup(pools.a, [
      { parcelId: randomUUID(), organizationId: randomUUID(), mode: "live", amountCentimes: 1 }
    ]);
    expect(!unknownWallet[0].ok && (unknownWallet[0].error as { type?: string }).type).toBe("INSUFFICIENT_BALANCE");
    // The ledger's order is the balances' order (migration wallet/002): each line's balance follows the one before.
    const lines = await pools.a.query<{ after: string }>(
      "SELECT balance_after_centimes AS after FROM wallet.ledger WHERE organization_id = $1 AND kind = 'debit' ORDER BY seq",
      [organizationId]
    );
    expect(lines.map(l => Number(l.after))).toEqual([20_000, 0]);
  });
});

describe("a wallet debit group on the embedded database", () => {
  test("counts as a write, though it is a SELECT of the function: no cached read outlives it", async () => {
    const { db, close } = await openThrowAwayPglite();
    try {
      await migrateSchema(db, "wallet");
      const organizationId = randomUUID();
      await db.query("INSERT INTO wallet.accounts (organization_id, mode, balance_centimes) VALUES ($1, 'live', 10000)", [organizationId]);
      const before = db.writeGeneration!();
      const [outcome] = await debitGroup(db, [{ parcelId: randomUUID(), organizationId, mode: "live", amountCentimes: 4000 }]);
      expect(outcome).toEqual({ ok: true, value: { amountCentimes: 4000, balanceAfterCentimes: 6000 } });
      expect(db.writeGeneration!()).toBeGreaterThan(before);
    } finally {
      await close();
    }
  });
});
