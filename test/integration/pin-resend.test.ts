import { randomUUID } from "node:crypto";
import { relayHelpers } from "../e2e/relay-contract";
import { expectError, Merchant } from "../e2e/merchant-helpers";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 30, "a way back in": a new pick-up PIN asked by the recipient (the tracking page's call)
 * or by the counter (the relay API), three a day per parcel in all, on each database engine.
 */

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const { system, broker } = inProcessSystem(databaseEnv);
  const h = relayHelpers(system);
  let merchant: Merchant;
  const askAsRecipient = (trackingNumber: string) =>
    broker().call<{ outcome: string }, { trackingNumber: string }>("parcels.resendPickupPinForRecipient", { trackingNumber });

  beforeAll(async () => {
    merchant = await h.m.create("Pin Resend SARL", 500_000, 5_000);
  });

  test("a new PIN by SMS: the old one fails, a locked PIN is lifted, the 4th of the day is refused", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const parcel = await h.inTransit(merchant, code);
    const tn = parcel.trackingNumber;
    expect((await agent("POST", "/arrivals", { trackingNumber: tn })).status).toBe(200);
    const first = await system().sms.pinOf(tn);
    const wrong = first === "000000" ? "111111" : "000000";
    const hand = (pin: string) => agent("POST", "/handovers", { trackingNumber: tn, pin, codCollectedDzd: 0 });
    for (let i = 0; i < 4; i++) expectError(await hand(wrong), 409, "PIN_INCORRECT");
    expectError(await hand(wrong), 423, "PIN_LOCKED");

    // 1: the recipient (lowercase and spaced as typed); the lock is lifted, the old PIN fails.
    expect(await askAsRecipient(` ${tn.toLowerCase()} `)).toEqual({ outcome: "accepted" });
    const second = await system().sms.pinOf(tn, 2);
    expect(second).not.toBe(first);
    // Issue 43: the new SMS says the earlier code no longer works; given at the counter, it is named
    // as replaced and costs no try (the next wrong one still has 4 left).
    expect(system().sms.messagesFor(tn)[1]).toMatch(/nouveau code .* L'ancien ne marche plus/);
    for (let i = 0; i < 2; i++) {
      const replaced = await hand(first);
      expectError(replaced, 409, "PIN_REPLACED");
      expect(replaced.body.message).toMatch(/replaced by a new one.*latest SMS/);
    }
    const counted = await hand(wrong === second ? "222222" : wrong);
    expectError(counted, 409, "PIN_INCORRECT");
    expect(counted.body.message).toMatch(/4 attempts left/);

    // 2: the counter; the answer never carries the PIN.
    const byAgent = await agent("POST", `/parcels/${tn}/pin-resend`);
    expect(byAgent.status).toBe(202);
    expect(byAgent.body).toEqual({ trackingNumber: tn, message: expect.any(String) });
    const third = await system().sms.pinOf(tn, 3);
    expect(byAgent.text).not.toContain(third);

    // 3: the recipient again; then both are refused for the day, and no SMS leaves.
    expect(await askAsRecipient(tn)).toEqual({ outcome: "accepted" });
    const fourth = await system().sms.pinOf(tn, 4);
    expect(await askAsRecipient(tn)).toEqual({ outcome: "limited" });
    const refused = await agent("POST", `/parcels/${tn}/pin-resend`);
    expectError(refused, 409, "PIN_RESEND_LIMIT");
    expect(system().sms.messagesFor(tn)).toHaveLength(4);

    if (third !== fourth) expectError(await hand(third), 409, "PIN_REPLACED");
    expect((await hand(fourth)).status).toBe(200);
    expect((await h.statusOf(merchant, parcel.id)).status).toBe("DELIVERED");
  });

  test("an unknown number gets the same answers, and nothing is sent", async () => {
    const unknown = "RP000000000DZ";
    for (let i = 0; i < 3; i++) expect(await askAsRecipient(unknown)).toEqual({ outcome: "accepted" });
    expect(await askAsRecipient(unknown)).toEqual({ outcome: "limited" });
    expect(system().sms.messagesFor(unknown)).toHaveLength(0);
  });

  test("an agent asks only for its own shelf's parcels, and not before arrival", async () => {
    const mine = await h.relayPoint();
    const other = await h.relayPoint();
    const [agent, stranger] = [await h.agent(mine), await h.agent(other)];
    const parcel = await h.inTransit(merchant, mine);
    expectError(await agent("POST", `/parcels/${parcel.trackingNumber}/pin-resend`), 404, "PARCEL_NOT_FOUND");
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    await system().sms.pinOf(parcel.trackingNumber);
    expectError(await stranger("POST", `/parcels/${parcel.trackingNumber}/pin-resend`), 404, "PARCEL_NOT_FOUND");
    expect(system().sms.messagesFor(parcel.trackingNumber)).toHaveLength(1);
  });
}

describe("pick-up PIN resend on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://pin-resend-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "pick-up PIN resend on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop };
  })
);
