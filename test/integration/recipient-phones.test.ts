import { randomBytes, randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { encryptField, decryptField } from "../../lib/crypto";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { normaliseStoredPhones } from "../../services/parcels/recipient/phone-normalisation";
import { eventually, expectError, Merchant, merchants, PARCEL } from "../e2e/merchant-helpers";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { createTestDatabase, migrateUpTo, openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 30, acceptance 1 and 2, on each database engine: the whole system in this process, driven
 * over HTTP as a merchant and the network do; the SMS read where the gateway would get them.
 */

const TO_AT_RELAY = ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"];

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const sut = inProcessSystem(databaseEnv);
  const m = merchants(sut.system);
  let merchant: Merchant;

  beforeAll(async () => {
    merchant = await m.create("Destinataires SARL", 100_000, 10_000);
  }, 60_000);

  const create = async (extra: object) => {
    const res = await merchant.live("POST", "/parcels", { ...PARCEL, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; trackingNumber: string; warnings?: { code: string }[] };
  };
  const atRelay = async (parcel: { id: string }) => m.move(parcel.id, ...TO_AT_RELAY);
  const smsOf = (trackingNumber: string) =>
    eventually(
      async () => sut.system().sms.sentFor(trackingNumber),
      sent => sent.length > 0
    );

  test("every way of writing one Algerian mobile, and a French one, is sent to as E.164", async () => {
    const forms: [string, string][] = [
      ["0661 22 33 07", "+213661223307"],
      ["+213 661 22 33 07", "+213661223307"],
      ["00213661223307", "+213661223307"],
      ["+33 6 12 34 56 78", "+33612345678"]
    ];
    for (const [typed, e164] of forms) {
      const parcel = await create({ recipientPhone: typed });
      expect(parcel.warnings).toBeUndefined();
      await atRelay(parcel);
      const [sms] = await smsOf(parcel.trackingNumber);
      expect({ typed, to: sms.to }).toEqual({ typed, to: e164 });
    }
  });

  test("a landline is accepted with the warning, gets no SMS, and the merchant gets parcel.recipient_unreachable; operators see it", async () => {
    const parcel = await create({ recipientPhone: "021 23 45 67" });
    expect(parcel.warnings).toEqual([expect.objectContaining({ code: "RECIPIENT_PHONE_NOT_MOBILE", field: "recipientPhone" })]);
    await atRelay(parcel);
    const events = await eventually(
      async () => (await merchant.live("GET", `/events?parcelId=${parcel.id}&limit=100`)).body.items as { type: string; data: any }[],
      items => items.some(e => e.type === "parcel.recipient_unreachable")
    );
    const unreachable = events.filter(e => e.type === "parcel.recipient_unreachable");
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0].data).toMatchObject({ previousStatus: "AT_RELAY", parcel: { id: parcel.id, status: "AT_RELAY" } });
    expect(sut.system().sms.sentFor(parcel.trackingNumber)).toEqual([]);
    // The pick-up SMS is recorded as undeliverable; the parcel stays AT_RELAY (nobody was notified).
    const messages = await sut.broker().call<{ status: string }[], object>("notifications.listMessages", { parcelId: parcel.id });
    expect(messages.map(msg => msg.status)).toEqual(["undeliverable"]);
    expect((await merchant.live("GET", `/parcels/${parcel.id}`)).body.status).toBe("AT_RELAY");

    const listed = await m.bo().call("GET", "/recipient-phones/not-mobile?size=100");
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((i: { parcelId: string }) => i.parcelId === parcel.id);
    expect(item).toMatchObject({ trackingNumber: parcel.trackingNumber, organizationId: merchant.orgId, mode: "live" });
    expect(JSON.stringify(item)).not.toContain("21234567");
  });

  test("the warning comes back on an idempotent replay and on a batch item; a mobile's answers carry none", async () => {
    const key = { "Idempotency-Key": `landline-${randomUUID()}` };
    const first = await merchant.live("POST", "/parcels", { ...PARCEL, recipientPhone: "021 23 45 67" }, key);
    const replay = await merchant.live("POST", "/parcels", { ...PARCEL, recipientPhone: "021 23 45 67" }, key);
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.warnings).toEqual([expect.objectContaining({ code: "RECIPIENT_PHONE_NOT_MOBILE" })]);
    const batch = await merchant.live("POST", "/parcels/batch", { items: [{ ...PARCEL, recipientPhone: "021 23 45 67" }, PARCEL] });
    expect(batch.status).toBe(200);
    expect(batch.body.items.map((i: { parcel: { warnings?: { code: string }[] } }) => i.parcel.warnings?.map(w => w.code) ?? [])).toEqual([
      ["RECIPIENT_PHONE_NOT_MOBILE"],
      []
    ]);
    expect((await create({})).warnings).toBeUndefined();
  });

  test("with rejectNonMobilePhones, create, quote and batch refuse a landline with 400 RECIPIENT_PHONE_INVALID; mobiles still pass", async () => {
    const strict = await m.create("Stricte SARL", 10_000);
    expect((await strict.live("GET", "/recipient-settings")).body).toEqual({ rejectNonMobilePhones: false, defaultLanguage: "fr" });
    const put = await strict.live("PUT", "/recipient-settings", { rejectNonMobilePhones: true, defaultLanguage: "fr" });
    expect(put.status).toBe(200);
    const landline = { ...PARCEL, recipientPhone: "021 23 45 67" };
    expectError(await strict.live("POST", "/parcels", landline), 400, "RECIPIENT_PHONE_INVALID", "recipientPhone");
    expectError(await strict.live("POST", "/parcels/quote", landline), 400, "RECIPIENT_PHONE_INVALID", "recipientPhone");
    const batch = await strict.live("POST", "/parcels/batch", { items: [landline, PARCEL] });
    expect(batch.status).toBe(200);
    expect(batch.body.items.map((i: { status: number; error: { code: string } | null }) => [i.status, i.error?.code ?? null])).toEqual([
      [400, "RECIPIENT_PHONE_INVALID"],
      [201, null]
    ]);
    // The other mode keeps its own settings.
    expect((await strict.sandbox("GET", "/recipient-settings")).body.rejectNonMobilePhones).toBe(false);
    // A SPEC client without the setting: the landline is a 201.
    expect((await merchant.live("POST", "/parcels/quote", landline)).body.warnings).toEqual([
      expect.objectContaining({ code: "RECIPIENT_PHONE_NOT_MOBILE" })
    ]);
  });

  test("recipientLanguage ar: the pick-up SMS is Arabic; the organisation's default applies when a parcel names none", async () => {
    const arabic = await create({ recipientPhone: "0661 22 33 08", recipientLanguage: "ar" });
    await atRelay(arabic);
    const [sms] = await smsOf(arabic.trackingNumber);
    expect(sms.message).toContain("طردك");
    // The SMS' short link opens the tracking page in Arabic.
    const link = /(http\S+\/t\/\S+)$/.exec(sms.message)![1];
    const followed = await fetch(link, { redirect: "manual" });
    expect(followed.status).toBe(302);
    // The pick-up SMS's link carries the pickup pass's secret (decision 0047) and the language.
    const passPage = (lang: string): RegExp => new RegExp(`^/track/${arabic.trackingNumber}\\?pass=[0-9A-Za-z]{13}&lang=${lang}$`);
    expect(followed.headers.get("location")).toMatch(passPage("ar"));
    const page = await fetch(new URL(followed.headers.get("location")!, link));
    expect(page.headers.get("content-language")).toBe("ar");
    // The recipient switches the page to English: the link, and later SMS, follow.
    expect((await fetch(`${sut.system().baseUrl}/track/${arabic.trackingNumber}?lang=en`)).status).toBe(200);
    expect((await fetch(link, { redirect: "manual" })).headers.get("location")).toMatch(passPage("en"));

    const org = await m.create("English SARL", 10_000);
    await org.live("PUT", "/recipient-settings", { rejectNonMobilePhones: false, defaultLanguage: "en" });
    const res = await org.live("POST", "/parcels", { ...PARCEL, recipientPhone: "0661 22 33 09" });
    await m.move(res.body.id, ...TO_AT_RELAY);
    expect((await smsOf(res.body.trackingNumber))[0].message).toContain("Pick-up code:");
    expectError(await org.live("POST", "/parcels", { ...PARCEL, recipientLanguage: "de" }), 400, "VALIDATION_FAILED", "recipientLanguage");
  });
}

describe("recipient phones and language on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://recipient-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "recipient phones and language on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, url: database.url, drop: database.drop };
  })
);

/**
 * Migration parcels/020 on a database with parcels created before it (their phones sealed as
 * typed), then the start-up pass of decision 0036: mobiles rewritten as E.164, the others kept and
 * listed, none dropped.
 */
function migrationContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;
  const key = randomBytes(32).toString("hex");
  const otherKey = randomBytes(32).toString("hex");
  const quietLogger = { info: () => undefined, warn: () => undefined } as unknown as Logger;
  const rows: Record<string, { id: string; phoneEnc: string }> = {};

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateUpTo(db, "parcels", "020_recipient_phone_and_language.sql");
    await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-16-TEST', 'Test', 'Alger')");
    const phones: Record<string, string> = {
      mobile: encryptField("0661 22 33 07", key),
      international: encryptField("00213 661 22 33 07", key),
      landline: encryptField("021 23 45 67", key),
      otherKey: encryptField("0661 22 33 07", otherKey)
    };
    for (const [name, phoneEnc] of Object.entries(phones)) {
      rows[name] = { id: randomUUID(), phoneEnc };
      await db.query(
        `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code, recipient_name_enc,
           recipient_phone_enc, weight_g, price_centimes) VALUES ($1, $2, 'live', $3, 'CREATED', 'DZ-16-TEST', $4, $5, 1000, 45000)`,
        [rows[name].id, randomUUID(), `RP${String(Object.keys(rows).length).padStart(9, "0")}DZ`, encryptField("A", key), phoneEnc]
      );
    }
  }, 60_000);

  afterAll(() => close());

  test("the rows survive the migration, are normalised once at start-up, and those that cannot be are kept and marked", async () => {
    expect(await migrateSchema(db, "parcels")).toContain("020_recipient_phone_and_language.sql");
    const before = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM parcels.parcels");
    expect(Number(before[0].n)).toBe(4);
    expect(await normaliseStoredPhones(db, key, quietLogger)).toEqual({ checked: 4, notMobile: 2 });
    expect(await normaliseStoredPhones(db, key, quietLogger)).toEqual({ checked: 0, notMobile: 0 });

    const stored = await db.query<{ id: string; recipient_phone_enc: string; recipient_phone_mobile: boolean; recipient_language: string }>(
      "SELECT id, recipient_phone_enc, recipient_phone_mobile, recipient_language FROM parcels.parcels"
    );
    const byId = new Map(stored.map(r => [r.id, r]));
    expect(stored).toHaveLength(4);
    expect(decryptField(byId.get(rows.mobile.id)!.recipient_phone_enc, key)).toBe("+213661223307");
    expect(decryptField(byId.get(rows.international.id)!.recipient_phone_enc, key)).toBe("+213661223307");
    expect(byId.get(rows.landline.id)!.recipient_phone_mobile).toBe(false);
    // Sealed with a key this system no longer has: kept exactly as it was, listed for operators.
    expect(byId.get(rows.otherKey.id)).toMatchObject({ recipient_phone_enc: rows.otherKey.phoneEnc, recipient_phone_mobile: false });
    expect(stored.every(r => r.recipient_language === "fr")).toBe(true);
  });
}

describe("parcels migration 020 and the phone normalisation on PGlite", () => migrationContract(openThrowAwayPglite));
describeWithServers(["postgres"], "parcels migration 020 and the phone normalisation on the PostgreSQL server", () =>
  migrationContract(openThrowAwayPostgres)
);
