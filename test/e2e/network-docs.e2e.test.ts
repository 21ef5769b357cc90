import fs from "node:fs";
import path from "node:path";
import { GuideSystem, startForGuide } from "../helpers/guide-walk";

/**
 * Issue 44, acceptance 4: every shell command of docs/merchants/pickups-and-manifests.md and
 * docs/operations/network.md — every ```sh block of each page, whatever sections are added, in
 * order — run with bash against `npm start` (embedded) as a reader would, the merchant's page
 * first. `curl` is wrapped to record each answer's status line: a block must exit 0 under
 * `set -euo pipefail`, and no call may answer 5xx (a broken server) or 401 (a key the page did not
 * set up).
 */

const RECORD_STATUSES = `
curl() { command curl -D "$DATA_DIR/answers/$(date +%s%N).txt" "$@"; }
mkdir -p "$DATA_DIR/answers"
`;

describe("the pickups and network pages, every command run as written (npm start)", () => {
  let guide: GuideSystem;

  beforeAll(async () => {
    guide = await startForGuide("network-docs");
  }, 90_000);

  afterAll(async () => {
    await guide?.stop();
  });

  /** The status lines of every answer so far, then forgotten. */
  function answers(): number[] {
    const dir = path.join(guide.dataDir, "answers");
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    const statuses = files.flatMap(f =>
      [...fs.readFileSync(path.join(dir, f), "utf8").matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map(m => Number(m[1]))
    );
    fs.rmSync(dir, { recursive: true, force: true });
    return statuses;
  }

  const broken = (status: number) => status >= 500 || status === 401;

  test("pickups and manifests: a parcel, its pickup booked, read and cancelled", async () => {
    const stdout = await guide.walkAll("docs/merchants/pickups-and-manifests.md", 3, RECORD_STATUSES);
    const statuses = answers();
    expect(statuses.length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter(broken)).toEqual([]);
    expect(stdout).toContain('"status": "CONFIRMED"');
    expect(stdout).toMatch(/"confirmationNumber": "PU-\d{8}-[2-9A-Z]{6}"/);
    expect(stdout).toContain('"status": "CANCELLED"');
  }, 120_000);

  test("the network: a hub, a courier and keys; a parcel mis-sorted at Oran, sorted at Bab Ezzouar, received at its relay", async () => {
    const stdout = await guide.walkAll("docs/operations/network.md", 3, RECORD_STATUSES);
    const statuses = answers();
    expect(statuses.length).toBeGreaterThanOrEqual(15);
    expect(statuses.filter(broken)).toEqual([]);
    expect(stdout).toContain('"code": "HUB-31-ES-SENIA"');
    expect(stdout).toContain('{"outcome":"COLLECTED","status":"PICKED_UP"}');
    expect(stdout).toContain('{"outcome":"MISSORTED","sort":"ERREUR DE TRI — renvoyer vers WILAYA 16 — DZ-16-ALGER-CENTRE"}');
    expect(stdout).toMatch(/\{"outcome":"ALREADY","sort":"BAC DZ-16-ALGER-CENTRE — tournée wilaya 16"\}/);
    expect(stdout).toMatch(/"status":"(AT_RELAY|RELAY_NOTIFIED)"/);
    expect(stdout).toContain('[{"reason":"OFF_ROUTE_HUB","foundInWilaya":"31","rerouteToWilaya":"16"}]');
    expect(stdout).toContain('["OFF_ROUTE_HUB"]');
  }, 120_000);
});
