import { randomUUID } from "node:crypto";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import { eventually, Merchant, merchants } from "../e2e/merchant-helpers";
import { NetworkCrew, networkCrew, pickedUpParcels } from "../e2e/network-walk";
import { testEngines } from "../helpers/engines";
import { inProcessSystem } from "../helpers/in-process-system";

/**
 * Issue 44 D, loss detection, on each database engine: parcels walked into the network through the
 * APIs, then the loss pass run with a clock moved forward (parcels.runLossPass --now) instead of
 * waiting two days. The database is reached directly only to age a parcel's history, so that its
 * merchant may claim it as lost (claims' own 10-day rule) and race the pass.
 */

const HOUR_MS = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();

interface EventItem {
  type: string;
  data: { previousStatus?: string; parcel: { status: string }; investigation?: { outcome: string | null; lastHolder: unknown } };
}

describe.each(testEngines("loss-detection"))("loss detection on %s", (_name, engine) => {
  // The pass runs when a test asks, with its clock; the instance's own timer stays out of the way.
  const sut = inProcessSystem(async () => {
    const database = await engine();
    return { ...database, url: database.url ?? undefined, env: { ...database.env, LOSS_PASS_INTERVAL_MS: "3600000" } };
  });
  const m = merchants(sut.system);
  let db: Database;
  let merchant: Merchant;
  let crew: NetworkCrew;

  beforeAll(async () => {
    db = await acquireDatabase(sut.config());
    merchant = await m.create(`Loss ${randomUUID().slice(0, 8)}`, 200_000);
    crew = await networkCrew(sut.system);
  }, 60_000);

  afterAll(async () => {
    await releaseDatabase(sut.config());
  });

  const pass = (now: string) =>
    sut.broker().call<{ opened: number; lost: number; dismissed: number }, { now: string }>("parcels.runLossPass", { now });
  const queue = async () =>
    (await m.bo().call("GET", "/investigations?size=100")).body.items as { parcelId: string; reason: string; lastHolder: any }[];
  const eventsOf = (parcelId: string) =>
    merchant.live("GET", `/events?parcelId=${parcelId}&limit=100`).then(r => r.body.items as EventItem[]);
  const claimsOf = async (parcelId: string) =>
    (
      (await m.bo().call("GET", "/claims?size=100")).body.items as { parcelId: string; type: string; description: string; evidence: any }[]
    ).filter(c => c.parcelId === parcelId);
  const age = (parcelId: string, days: number) =>
    db.query("UPDATE parcels.status_history SET created_at = created_at - make_interval(days => $2::int) WHERE parcel_id = $1", [
      parcelId,
      days
    ]);

  test("silent 48 h in a courier's hands: investigated once (status unchanged, the queue names the courier); a hub's scan closes it", async () => {
    const [parcel] = await pickedUpParcels(merchant, crew, 1);
    await pass(later(47));
    expect((await queue()).map(i => i.parcelId)).not.toContain(parcel.id);

    await pass(later(49));
    await pass(later(50));
    const listed = (await queue()).filter(i => i.parcelId === parcel.id);
    expect(listed).toEqual([
      expect.objectContaining({ reason: "NO_SCAN", lastHolder: expect.objectContaining({ holder: "courier", name: "Yacine" }) })
    ]);
    const opened = await eventually(
      () => eventsOf(parcel.id),
      items => items.some(e => e.type === "parcel.investigation_opened")
    );
    expect(opened.filter(e => e.type === "parcel.investigation_opened")).toHaveLength(1);
    expect(opened.find(e => e.type === "parcel.investigation_opened")!.data).toMatchObject({
      previousStatus: "PICKED_UP",
      parcel: { status: "PICKED_UP", custody: { holder: "courier", name: "Yacine" } },
      investigation: { reason: "NO_SCAN", outcome: null, lastHolder: { holder: "courier", name: "Yacine" } }
    });
    expect((await merchant.live("GET", `/parcels/${parcel.id}`)).body.status).toBe("PICKED_UP");

    const scanIn = await crew.hubApi("POST", "/scans/in", { trackingNumber: parcel.trackingNumber }, { "Idempotency-Key": randomUUID() });
    expect(scanIn.body.status).toBe("IN_TRANSIT");
    expect((await queue()).map(i => i.parcelId)).not.toContain(parcel.id);
    const closed = await eventually(
      () => eventsOf(parcel.id),
      items => items.some(e => e.type === "parcel.investigation_closed")
    );
    expect(closed.find(e => e.type === "parcel.investigation_closed")!.data.investigation).toMatchObject({ outcome: "FOUND" });
    expect((await merchant.live("GET", `/parcels/${parcel.id}`)).body.custody).toEqual(
      expect.objectContaining({ holder: "hub", name: crew.hub.code, wilaya: "16" })
    );
  });

  test("an operator closes an investigation: DISMISSED once, however often it is sent; an unknown one is 404", async () => {
    const [parcel] = await pickedUpParcels(merchant, crew, 1);
    await pass(later(49));
    const inv = (await m.bo().call("GET", "/investigations?size=100")).body.items.find(
      (i: { parcelId: string }) => i.parcelId === parcel.id
    );
    expect(inv).toBeDefined();
    const answers = await Promise.all([1, 2, 3].map(() => m.bo().call("POST", `/investigations/${inv.id}/close`)));
    for (const a of answers) expect({ status: a.status, outcome: a.body.outcome }).toEqual({ status: 200, outcome: "DISMISSED" });
    expect((await queue()).map(i => i.parcelId)).not.toContain(parcel.id);
    const events = await eventually(
      () => eventsOf(parcel.id),
      items => items.some(e => e.type === "parcel.investigation_closed")
    );
    expect(events.filter(e => e.type === "parcel.investigation_closed")).toHaveLength(1);
    expect((await m.bo().call("POST", `/investigations/${randomUUID()}/close`)).body.code).toBe("NOT_FOUND");
  });

  test("silent 7 days: LOST, with one claim for the merchant carrying the custody trail; the pass again changes nothing", async () => {
    const [parcel] = await pickedUpParcels(merchant, crew, 1, { declaredValueDzd: 8000 });
    await pass(later(49));
    const first = await pass(later(8 * 24));
    expect(first.lost).toBeGreaterThanOrEqual(1);
    await pass(later(9 * 24));
    const read = (await merchant.live("GET", `/parcels/${parcel.id}`)).body;
    expect({ status: read.status, custody: read.custody }).toEqual({ status: "LOST", custody: null });
    const claims = await claimsOf(parcel.id);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ type: "LOST", status: "OPEN", amountClaimedDzd: 8000 });
    expect(claims[0].evidence.custodyTrail).toEqual([
      expect.objectContaining({ givenBy: "merchant", holder: "courier", scan: "pickup.collected" })
    ]);
    expect((await queue()).map(i => i.parcelId)).not.toContain(parcel.id);
    const events = await eventually(
      () => eventsOf(parcel.id),
      items => items.some(e => e.type === "claim.opened")
    );
    expect(events.filter(e => ["parcel.lost", "claim.opened"].includes(e.type)).map(e => e.type)).toEqual(["parcel.lost", "claim.opened"]);
  });

  test("the merchant's own claim, opened first, is the one claim", async () => {
    const [parcel] = await pickedUpParcels(merchant, crew, 1);
    await age(parcel.id, 11);
    const own = await merchant.live("POST", `/parcels/${parcel.id}/claims`, {
      type: "LOST",
      description: "Never arrived",
      amountClaimedDzd: 3000
    });
    expect(own.status).toBe(201);
    await pass(later(8 * 24));
    expect((await merchant.live("GET", `/parcels/${parcel.id}`)).body.status).toBe("LOST");
    expect((await claimsOf(parcel.id)).map(c => c.description)).toEqual(["Never arrived"]);
  });

  test("the merchant's claim and the pass at the same moment: exactly one claim", async () => {
    const parcels = await pickedUpParcels(merchant, crew, 3);
    for (const p of parcels) await age(p.id, 11);
    const answers = await Promise.all([
      ...parcels.map(p =>
        merchant.live("POST", `/parcels/${p.id}/claims`, { type: "LOST", description: "Never arrived", amountClaimedDzd: 3000 })
      ),
      pass(later(8 * 24))
    ]);
    for (const [i, p] of parcels.entries()) {
      const res = answers[i] as { status: number; body: { code?: string } };
      // Either the merchant's claim opened (and the pass found it open), or the pass's did (409 for the merchant).
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) expect(res.body.code).toBe("CLAIM_ALREADY_OPEN");
      expect(await claimsOf(p.id)).toHaveLength(1);
      expect((await merchant.live("GET", `/parcels/${p.id}`)).body.status).toBe("LOST");
    }
  });
});
