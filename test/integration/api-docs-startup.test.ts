import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { ALL_SERVICES, loadConfig } from "../../lib/config";
import { attachConfig } from "../../mixins/config.mixin";
import { brokerOptions } from "../../moleculer.config";
import { loadServiceSchema } from "../../services";
import { eventually } from "../e2e/merchant-helpers";
import { freePort } from "../helpers/processes";

/**
 * Issue 26 (newcomers): while the services start, the gateway may already listen before every
 * service has registered its actions. The API documents then answer 503 with Retry-After in the
 * error shape, never a 200 with part of the API; once every service is there, the whole document.
 * Set up deterministically: the gateway and auth start first, the others only after the 503 is seen.
 */

describe("API documents during start-up", () => {
  let broker: ServiceBroker;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      DATA_DIR: `memory://${randomUUID()}`,
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      BACKOFFICE_TOKEN: `bo_${randomBytes(12).toString("hex")}`,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn"
    });
    expect(config.services).toEqual(ALL_SERVICES);
    broker = new ServiceBroker({ ...brokerOptions(config), logger: false });
    attachConfig(broker, config);
    for (const name of ["gateway", "auth"] as const) broker.createService(await loadServiceSchema(name));
    await broker.start();
  }, 60_000);

  afterAll(async () => {
    await broker?.stop();
  });

  it("answers 503 with Retry-After until every service has registered, then the whole document", async () => {
    const early = await fetch(`${base}/v3/api-docs/partner`);
    expect(early.status).toBe(503);
    expect(Number(early.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await early.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: "UNAVAILABLE", status: 503 });
    expect(body.message).toContain("parcels");
    expect((await fetch(`${base}/v3/api-docs/relay`)).status).toBe(503);

    for (const name of ALL_SERVICES.filter(n => n !== "gateway" && n !== "auth")) {
      broker.createService(await loadServiceSchema(name));
    }
    // A kept-alive connection may have been closed meanwhile (its idle time-out): asked again on a new one.
    const read = () => fetch(`${base}/v3/api-docs/partner`).catch(() => fetch(`${base}/v3/api-docs/partner`));
    const res = await eventually(read, r => r.status !== 503);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    // Each service's endpoints are in it: parcels, wallet, labels, events, and the health check.
    const paths = Object.keys(document.paths);
    for (const path of ["parcels", "wallet", "labels", "events", "health"]) expect(paths).toContain(`/api/partner/v1/${path}`);
  }, 60_000);
});
