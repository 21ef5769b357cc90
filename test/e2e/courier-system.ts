import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { http } from "../helpers/http";
import { ROOT } from "../helpers/processes";
import { CounterSystem, RELAY } from "./counter-system";
import { PICKUP_ADDRESS, pickupWindow } from "./network-contract";

/**
 * What the courier app's browser tests share (beside counter-system.ts, whose started system and
 * Chromium they use): a hub of wilaya 16 with its courier and station key, two relay points the
 * run goes to (a new one, and the counter's own DZ-16-ALGER-CENTRE), a merchant's pickup with its
 * manifest, and the day's run as the operator plans it.
 */
export const COURIER_ARTIFACTS = path.join(ROOT, ".ci-artifacts", "courier-app");

type Api = (method: string, apiPath: string, body?: unknown) => Promise<{ status: number; body: any; text: string }>;

const keyed =
  (base: string, api: string, key: string): Api =>
  (method, apiPath, body) =>
    http(base, method, `/api/${api}/v1${apiPath}`, {
      headers: { Authorization: `ApiKey ${key}`, "Idempotency-Key": randomBytes(8).toString("hex") },
      body
    });

function must<T extends { status: number; text: string }>(answer: T, status: number, what: string): T {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
}

export interface CourierDay {
  hub: { id: string; code: string };
  courier: { id: string };
  hubApi: Api;
  /** Relay A: a new relay point of wilaya 16, and its agent. */
  relayA: { code: string; agent: Api };
  /** Relay B: the counter's relay point, and its agent. */
  relayB: { code: string; agent: Api };
  pickup: { id: string; manifestNumber: string; parcels: { id: string; trackingNumber: string }[] };
  /** A pairing code for the courier's phone, from the back-office. */
  pairingCode(): Promise<string>;
  /** The operator's plan for today: these stops, in this order. */
  planRun(stops: { kind: string; ref: string }[]): Promise<void>;
  /** The courier API with a key of its own (a second phone paired by code): scans made beside the app's. */
  courierApi(): Promise<Api>;
}

export async function courierDay(system: CounterSystem, tag: string): Promise<CourierDay> {
  const { bo, live, base } = system;
  const hub = must(
    await bo.call("POST", "/hubs", { code: `HUB-16-${tag}`, wilaya: "16", name: "Bab Ezzouar", address: "ZI Bab Ezzouar" }),
    201,
    "hub"
  ).body;
  const courier = must(
    await bo.call("POST", "/couriers", { firstName: "Yacine", lastName: "Haddad", phone: "+213 661 23 45 67", homeHubId: hub.id }),
    201,
    "courier"
  ).body;
  const hubKey = must(await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.id, name: "poste de tri" }), 201, "hub key").body;
  const agentOf = async (code: string) =>
    keyed(base, "relay", must(await bo.call("POST", `/relay-points/${code}/agent-keys`, { name: "comptoir" }), 201, "agent key").body.key);
  const codeA = `DZ-16-R${tag}`;
  must(await bo.call("POST", "/relay-points", { code: codeA, name: `Relais ${tag}`, city: "Alger", wilaya: "16" }), 201, "relay A");

  const parcels: { id: string; trackingNumber: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const made = must(
      await live("POST", "/parcels", {
        recipientName: `Client ${tag} ${i}`,
        recipientPhone: `+213 555 1${i} 00 ${String(10 + i)}`,
        weightG: 700,
        destinationRelayCode: codeA
      }),
      201,
      "parcel"
    );
    parcels.push({ id: made.body.id, trackingNumber: made.body.trackingNumber });
  }
  const window = pickupWindow();
  const pickup = must(
    await live("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      readyAt: window.readyAt,
      closeAt: window.closeAt,
      parcelIds: parcels.map(p => p.id)
    }),
    201,
    "pickup"
  ).body;
  const manifest = must(await live("POST", "/manifests", { pickupId: pickup.id }), 201, "manifest").body;
  const pairingCode = async (): Promise<string> =>
    must(await bo.call("POST", `/couriers/${courier.id}/pairing-codes`, { deviceName: "Téléphone Yacine" }), 201, "pairing code").body.code;

  return {
    hub,
    courier,
    hubApi: keyed(base, "hub", hubKey.key),
    relayA: { code: codeA, agent: await agentOf(codeA) },
    relayB: { code: RELAY, agent: await agentOf(RELAY) },
    pickup: { id: pickup.id, manifestNumber: manifest.number, parcels },
    pairingCode,
    async planRun(stops) {
      const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
      const kept = must(await bo.call("GET", `/runs?date=${today}&courierId=${courier.id}`), 200, "run");
      must(await bo.call("PUT", `/runs/${kept.body.id}/stops`, { stops }), 200, "run stops");
    },
    async courierApi() {
      const paired = must(await http(base, "POST", "/api/courier/v1/pairings", { body: { code: await pairingCode() } }), 201, "pairing");
      return keyed(base, "courier", paired.body.key);
    }
  };
}

/**
 * At the counter's relay point: a COD parcel handed over and the till closed (cash to collect),
 * and a refused parcel waiting as a return, handed to the courier by the agent's return dispatch.
 */
export async function counterWithCashAndReturn(system: CounterSystem, agent: Api, codDzd: number): Promise<{ returnNumber: string }> {
  const cod = await system.incoming(codDzd);
  must(await agent("POST", "/arrivals", { trackingNumber: cod.trackingNumber }), 200, "arrival");
  const pin = await system.sms.pinOf(cod.trackingNumber);
  must(await agent("POST", "/handovers", { trackingNumber: cod.trackingNumber, pin, codCollectedDzd: codDzd }), 200, "handover");
  must(await agent("POST", "/cash/closings", { countedDzd: codDzd }), 201, "closing");
  const refused = await system.incoming(null);
  must(await agent("POST", "/arrivals", { trackingNumber: refused.trackingNumber }), 200, "arrival");
  must(await agent("POST", "/refusals", { trackingNumber: refused.trackingNumber, reason: "Refusé par le destinataire" }), 200, "refusal");
  must(await agent("POST", "/return-dispatches", { trackingNumbers: [refused.trackingNumber] }), 200, "return dispatch");
  return { returnNumber: refused.trackingNumber };
}

export async function courierScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(COURIER_ARTIFACTS, { recursive: true });
  // From the top: a full-page shot of a scrolled page draws the sticky header where the page was scrolled to, over the screen.
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: path.join(COURIER_ARTIFACTS, `${name}.png`), fullPage: true });
}
