import type { Database } from "../../lib/db/database";
import { relayPickupEvents } from "../../services/logistics/pickups/pickup-events-relay";
import { simulatorPass } from "../../services/logistics/pickups/sandbox-simulator";
import { createParcels, PICKUP_ADDRESS, pickupWindow } from "../e2e/network-contract";
import { merchants, Merchant } from "../e2e/merchant-helpers";
import { testEngines } from "../helpers/engines";
import { inProcessSystem } from "../helpers/in-process-system";

/**
 * Issue 44 B, decision 0054, on each engine: the sandbox's courier completes a sandbox pickup
 * once its window opened (the simulator's pass, given a clock past readyAt) and never a live one;
 * an outbox row handed over again (a stop between webhooks' answer and the mark) is one event.
 */
describe.each(testEngines("pickup-events"))("pickup events on %s", (_name, engine) => {
  const sut = inProcessSystem(async () => {
    const database = await engine();
    return { ...database, url: database.url ?? undefined };
  });
  const m = merchants(sut.system);
  const db = () => (sut.broker().getLocalService("logistics") as unknown as { db: Database }).db;
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await m.create("Simulated pickups", 100_000, 50_000);
  }, 60_000);

  const book = async (mode: "live" | "sandbox") => {
    const ids = await createParcels(merchant, 1, mode);
    const window = pickupWindow();
    const res = await merchant[mode]("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      readyAt: window.readyAt,
      closeAt: window.closeAt,
      parcelIds: ids
    });
    expect(res.status).toBe(201);
    return { pickup: res.body as { id: string; readyAt: string }, parcelId: ids[0] };
  };

  test("the simulator completes a sandbox pickup once its window opened, and leaves live pickups to the courier", async () => {
    const sandbox = await book("sandbox");
    const live = await book("live");
    // Before the window: nothing to do for this pickup.
    await simulatorPass({ db: db(), caller: sut.broker() }, new Date(Date.parse(sandbox.pickup.readyAt) - 60_000));
    expect((await merchant.sandbox("GET", `/pickups/${sandbox.pickup.id}`)).body.status).toBe("CONFIRMED");

    await simulatorPass({ db: db(), caller: sut.broker() }, new Date(Date.parse(sandbox.pickup.readyAt) + 60_000));
    expect((await merchant.sandbox("GET", `/pickups/${sandbox.pickup.id}`)).body).toEqual(
      expect.objectContaining({ status: "COMPLETED", missing: [], parcels: [{ id: sandbox.parcelId, state: "COLLECTED" }] })
    );
    expect((await merchant.sandbox("GET", `/parcels/${sandbox.parcelId}`)).body.status).toBe("PICKED_UP");
    expect((await merchant.live("GET", `/pickups/${live.pickup.id}`)).body.status).toBe("CONFIRMED");
    expect((await merchant.live("GET", `/parcels/${live.parcelId}`)).body.status).toBe("READY_FOR_PICKUP");
  });

  test("an outbox row handed over twice (the mark lost) is one event in the events API", async () => {
    const { pickup } = await book("live");
    const relay = () => relayPickupEvents({ db: db(), caller: sut.broker(), isAvailable: () => true });
    await relay();
    await db().query("UPDATE logistics.outbox SET dispatched_at = NULL WHERE pickup_id = $1", [pickup.id]);
    expect(await relay()).toBeGreaterThanOrEqual(1);
    const events = await merchant.live("GET", "/events?type=pickup.confirmed&limit=100");
    expect(events.status).toBe(200);
    expect(events.body.items.filter((e: { data: { pickup: { id: string } } }) => e.data.pickup.id === pickup.id)).toHaveLength(1);
  });
});
