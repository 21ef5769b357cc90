import { randomUUID } from "node:crypto";
import { http, HttpResult } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";
import { expectError, freshAddress } from "./merchant-helpers";

/**
 * What a phone's pairing by a one-time code does the same way for a counter (issue 27,
 * relay-counter-app-contract.ts) and a courier (issue 45 A, courier-pairing-contract.ts): the code
 * drawn, typed as a person types it, exchanged once, replayed by its Idempotency-Key, guesses limited.
 */
export type Pair = (body: unknown, headers?: Record<string, string>) => Promise<HttpResult>;

/**
 * `POST /api/{api}/v1/pairings`, each test from an address of its own (the system trusts one
 * proxy): pairings are limited per address. Call it in a describe or contract body (it adds a beforeEach).
 */
export function pairingsFrom(system: () => SystemUnderTest): (api: "relay" | "courier") => Pair {
  let address = freshAddress();
  beforeEach(() => (address = freshAddress()));
  return api =>
    (body, headers = {}) =>
      http(system().baseUrl, "POST", `/api/${api}/v1/pairings`, { body, headers: { "X-Forwarded-For": address, ...headers } });
}

/** A code just drawn by the back-office: 8 characters without look-alikes, 15 minutes, its QR and the app's address. */
export function expectDrawnCode(drawn: HttpResult, app: "counter" | "courier"): void {
  expect(drawn.status).toBe(201);
  expect(drawn.body).toEqual({
    code: expect.stringMatching(/^[A-HJKMNP-Z2-9]{8}$/),
    expiresAt: expect.any(String),
    qrSvg: expect.stringContaining("<svg"),
    pairUrl: `/${app}/#pair=${drawn.body.code}`
  });
  const minutes = (Date.parse(drawn.body.expiresAt) - Date.now()) / 60_000;
  expect(minutes).toBeGreaterThan(14);
  expect(minutes).toBeLessThanOrEqual(15);
}

/** The code as a person types it: lower case, a dash. */
export const typedByHand = (code: string) => `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;

/** With one Idempotency-Key, a lost answer comes back; the key with another body is 422; a new key finds the code used. */
export async function expectIdempotentExchange(pair: Pair, code: string): Promise<void> {
  const key = randomUUID();
  const first = await pair({ code, deviceName: "A05" }, { "Idempotency-Key": key });
  const replayed = await pair({ code, deviceName: "A05" }, { "Idempotency-Key": key });
  expect(first.status).toBe(201);
  expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 201, body: first.body });
  expectError(await pair({ code, deviceName: "other" }, { "Idempotency-Key": key }), 422, "IDEMPOTENCY_KEY_REUSED");
  expectError(await pair({ code, deviceName: "A05" }, { "Idempotency-Key": randomUUID() }), 404, "PAIRING_CODE_NOT_FOUND");
}

/** Guesses from one address are limited: the 12th is 429 with a Retry-After. */
export async function expectGuessesLimited(pair: Pair): Promise<void> {
  const attempts: HttpResult[] = [];
  for (let i = 0; i < 12; i++) attempts.push(await pair({ code: "ZZZZZZZZ" }));
  expect(attempts.at(-1)?.status).toBe(429);
  expect(attempts.at(-1)?.headers.get("retry-after")).toEqual(expect.any(String));
}
