import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { backoffice, http, HttpResult } from "../helpers/http";
import { Merchant, PARCEL } from "./merchant-helpers";

/**
 * Issue 44: a parcel walked into the network through the APIs only (a hub and its courier made in
 * the back-office, a pickup booked, the courier's scan), for the contracts that start there:
 * custody, loss detection.
 */

const PICKUP_ADDRESS = { line1: "12 rue Didouche Mourad", city: "Alger Centre", wilaya: "16" };

/** A window on the next day (Algiers) that is no Friday. */
function nextWindow(): { readyAt: string; closeAt: string } {
  const algiersDay = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().slice(0, 10);
  let at = new Date(Date.now() + 86_400_000);
  if (new Date(`${algiersDay(at)}T12:00:00Z`).getUTCDay() === 5) at = new Date(at.getTime() + 86_400_000);
  const day = algiersDay(at);
  return { readyAt: `${day}T09:00:00+01:00`, closeAt: `${day}T12:00:00+01:00` };
}

export type StaffApi = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpResult>;

export interface NetworkCrew {
  hub: { id: string; code: string };
  courier: { id: string; firstName: string };
  courierApi: StaffApi;
  hubApi: StaffApi;
  /** The staff keys as made (id, key, subjectId…). */
  courierKey: { id: string; key: string; subjectId: string };
  hubKey: { id: string; key: string; subjectId: string };
}

/** A courier's or a hub's API with its key. */
export const staffApiOf =
  (system: () => SystemUnderTest) =>
  (api: "courier" | "hub", key: string): StaffApi =>
  (method, path, body, headers = {}) =>
    http(system().baseUrl, method, `/api/${api}/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });

/** A wilaya 16 hub, its courier Yacine, and a staff key each. */
export async function networkCrew(system: () => SystemUnderTest): Promise<NetworkCrew> {
  const bo = backoffice(system().baseUrl, system().backofficeToken);
  const staffApi = staffApiOf(system);
  const hub = await bo.call("POST", "/hubs", {
    code: `HUB-16-${randomUUID().slice(0, 6).toUpperCase()}`,
    wilaya: "16",
    name: "Bab Ezzouar",
    address: "ZI Bab Ezzouar"
  });
  expect(hub.status).toBe(201);
  const courier = await bo.call("POST", "/couriers", {
    firstName: "Yacine",
    lastName: "Haddad",
    phone: "+213 661 23 45 67",
    homeHubId: hub.body.id
  });
  expect(courier.status).toBe(201);
  const courierKey = await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "Yacine's phone" });
  const hubKey = await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.body.id, name: "sort station 1" });
  expect([courierKey.status, hubKey.status]).toEqual([201, 201]);
  return {
    hub: hub.body,
    courier: courier.body,
    courierApi: staffApi("courier", courierKey.body.key),
    hubApi: staffApi("hub", hubKey.body.key),
    courierKey: courierKey.body,
    hubKey: hubKey.body
  };
}

/** `count` parcels of the merchant booked, collected by the crew's courier: PICKED_UP, custody courier. */
export async function pickedUpParcels(
  merchant: Merchant,
  crew: NetworkCrew,
  count: number,
  parcel: Record<string, unknown> = {}
): Promise<{ id: string; trackingNumber: string }[]> {
  const parcels: { id: string; trackingNumber: string }[] = [];
  for (let i = 0; i < count; i++) {
    const res = await merchant.live("POST", "/parcels", { ...PARCEL, ...parcel });
    expect(res.status).toBe(201);
    parcels.push({ id: res.body.id, trackingNumber: res.body.trackingNumber });
  }
  const booked = await merchant.live("POST", "/pickups", { address: PICKUP_ADDRESS, ...nextWindow(), parcelIds: parcels.map(p => p.id) });
  expect(booked.status).toBe(201);
  for (const p of parcels) {
    const scan = await crew.courierApi(
      "POST",
      `/pickups/${booked.body.id}/scans`,
      { trackingNumber: p.trackingNumber },
      { "Idempotency-Key": randomUUID() }
    );
    expect({ status: scan.status, parcel: scan.body.status }).toEqual({ status: 200, parcel: "PICKED_UP" });
  }
  return parcels;
}
