import { randomUUID } from "node:crypto";
import { backoffice } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";
import { expectError } from "./merchant-helpers";
import { networkCrew, staffApiOf } from "./network-walk";
import { expectDrawnCode, expectGuessesLimited, expectIdempotentExchange, pairingsFrom, typedByHand } from "./pairing-code-checks";
import { relayHelpers } from "./relay-contract";
import type { Sql } from "./relay-counter-app-contract";

/**
 * Issue 45 A (decision 0065): a courier's phone paired by a one-time code, as a counter's is
 * (relay-counter-app-contract.ts's pairingContract is the relay side; what both check alike is in
 * pairing-code-checks.ts): the code from
 * the back-office becomes a staff key of role courier; used, unknown, expired, raced and replayed
 * as the relay's; a relay's code does not pair a courier nor the other way round.
 */
export function courierPairingContract(system: () => SystemUnderTest, sql: () => Sql): void {
  const bo = () => backoffice(system().baseUrl, system().backofficeToken);
  const pairings = pairingsFrom(system);
  const pair = pairings("courier");
  const pairCounter = pairings("relay");
  const draw = (courierId: string, body: unknown = {}) => bo().call("POST", `/couriers/${courierId}/pairing-codes`, body);

  test("a one-time code from the back-office becomes this phone's courier key, listed and revoked with the staff keys", async () => {
    const crew = await networkCrew(system);
    const drawn = await draw(crew.courier.id, { deviceName: "Téléphone Yacine" });
    expectDrawnCode(drawn, "courier");

    const paired = await pair({ code: typedByHand(drawn.body.code), deviceName: "Redmi 13C" });
    expect(paired.status).toBe(201);
    expect(paired.body).toEqual({
      key: expect.stringMatching(/^rp_staff_[A-Za-z0-9]{40}$/),
      id: expect.any(String),
      name: "Redmi 13C",
      courierId: crew.courier.id,
      courierName: "Yacine Haddad",
      hubId: crew.hub.id
    });
    const phone = staffApiOf(system)("courier", paired.body.key);
    expect((await phone("GET", "/run")).status).toBe(200);
    // A courier's key, not a hub's.
    expectError(
      await staffApiOf(system)("hub", paired.body.key)("POST", "/scans/in", { trackingNumber: "RP000000000DZ" }),
      401,
      "UNAUTHENTICATED"
    );

    expectError(await pair({ code: drawn.body.code, deviceName: "another" }), 404, "PAIRING_CODE_NOT_FOUND");
    expectError(await pair({ code: "ABCDEFGH" }), 404, "PAIRING_CODE_NOT_FOUND");

    const listed = await bo().call("GET", `/staff-keys?subjectId=${crew.courier.id}`);
    expect(listed.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: paired.body.id, role: "courier", name: "Redmi 13C", revokedAt: null })])
    );
    expect(listed.text).not.toContain(paired.body.key);
    expect((await bo().call("DELETE", `/staff-keys/${paired.body.id}`)).status).toBe(204);
    expectError(await phone("GET", "/run"), 401, "UNAUTHENTICATED");

    // Without a name from the phone, the back-office's.
    const second = await draw(crew.courier.id, { deviceName: "Téléphone 2" });
    expect((await pair({ code: second.body.code })).body.name).toBe("Téléphone 2");
    expectError(await draw(randomUUID()), 404, "NOT_FOUND");
    expectError(await draw("not-a-uuid"), 400, "VALIDATION_FAILED");
  });

  test("a courier's code does not pair a counter, nor a relay's code a courier", async () => {
    const crew = await networkCrew(system);
    const courierCode = await draw(crew.courier.id);
    expectError(await pairCounter({ code: courierCode.body.code }), 404, "PAIRING_CODE_NOT_FOUND");
    const relayCode = await relayHelpers(system).relayPoint();
    const counterCode = await bo().call("POST", `/relay-points/${relayCode}/pairing-codes`, {});
    expectError(await pair({ code: counterCode.body.code }), 404, "PAIRING_CODE_NOT_FOUND");
    // Both still unused: each pairs its own app.
    expect((await pair({ code: courierCode.body.code })).status).toBe(201);
    expect((await pairCounter({ code: counterCode.body.code })).status).toBe(201);
  });

  test("concurrent exchanges give one key; with one Idempotency-Key a lost answer comes back; expired is 410; guesses are limited", async () => {
    const crew = await networkCrew(system);
    const keysOf = async () =>
      ((await bo().call("GET", `/staff-keys?subjectId=${crew.courier.id}`)).body as Array<{ role: string }>).filter(
        k => k.role === "courier"
      );
    const before = (await keysOf()).length;
    const drawn = await draw(crew.courier.id);
    const answers = await Promise.all([1, 2, 3].map(n => pair({ code: drawn.body.code, deviceName: `phone ${n}` })));
    expect(answers.map(a => a.status).sort()).toEqual([201, 404, 404]);
    expect(await keysOf()).toHaveLength(before + 1);

    const again = await draw(crew.courier.id);
    await expectIdempotentExchange(pair, again.body.code);

    const late = await draw(crew.courier.id);
    await sql()("UPDATE auth.pairing_codes SET expires_at = now() - interval '1 second' WHERE courier_id = $1 AND used_at IS NULL", [
      crew.courier.id
    ]);
    expectError(await pair({ code: late.body.code }), 410, "PAIRING_CODE_EXPIRED");
    await expectGuessesLimited(pair);
  });
}
