import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../lib/config";
import { verifyLabelSignature } from "../../lib/label-url";
import { attachConfig } from "../../mixins/config.mixin";
import { freshLabelUrls } from "../../mixins/label-urls";

const SECRET = "label-secret-for-tests-0123456789";
const BASE_URL = "https://api.example.dz";
const PARCELS = ["3f1c2b7e-9a4d-4e21-8c55-0d6f7a1b2c3d", "8a0e6c41-2f3b-4d5e-9a7c-1b2c3d4e5f60"];

/** The parcel views' label URLs (mixins/label-urls.ts): signed where the view is built, verified by labels. */
describe("fresh label URLs for views", () => {
  let signCalls = 0;

  async function brokerWith(options: { secret: string | undefined; labels: boolean }): Promise<ServiceBroker> {
    const broker = new ServiceBroker({ logger: false, nodeID: `views-${Math.random()}` });
    attachConfig(broker, {
      ...loadConfig({ PUBLIC_BASE_URL: BASE_URL }),
      secrets: { ...loadConfig({}).secrets, labelUrlSecret: options.secret }
    });
    if (options.labels) {
      broker.createService({
        name: "labels",
        actions: {
          signUrls: {
            visibility: "public",
            handler(ctx) {
              signCalls += 1;
              return {
                labelUrls: Object.fromEntries((ctx.params as { parcelIds: string[] }).parcelIds.map(id => [id, `${BASE_URL}/asked/${id}`]))
              };
            }
          }
        }
      });
    }
    await broker.start();
    return broker;
  }

  beforeEach(() => (signCalls = 0));

  test("with LABEL_URL_SECRET, each URL is signed here, without a call, and verifies as the labels service checks it", async () => {
    const broker = await brokerWith({ secret: SECRET, labels: true });
    try {
      const urls = await freshLabelUrls(broker, broker, [...PARCELS, PARCELS[0]]);
      expect(signCalls).toBe(0);
      expect(Object.keys(urls).sort()).toEqual([...PARCELS].sort());
      for (const id of PARCELS) {
        const url = new URL(urls[id]);
        expect(`${url.origin}${url.pathname}`).toBe(`${BASE_URL}/labels/${id}.pdf`);
        expect(verifyLabelSignature(id, url.searchParams.get("expires") ?? "", url.searchParams.get("signature") ?? "", SECRET)).toBe(
          "valid"
        );
      }
    } finally {
      await broker.stop();
    }
  });

  test("no labels service to serve them: no URL (the view says labelUrl null)", async () => {
    const broker = await brokerWith({ secret: SECRET, labels: false });
    try {
      expect(await freshLabelUrls(broker, broker, PARCELS)).toEqual({});
    } finally {
      await broker.stop();
    }
  });

  test("a process without the secret asks the labels service", async () => {
    const broker = await brokerWith({ secret: undefined, labels: true });
    try {
      expect(await freshLabelUrls(broker, broker, PARCELS)).toEqual(Object.fromEntries(PARCELS.map(id => [id, `${BASE_URL}/asked/${id}`])));
      expect(signCalls).toBe(1);
    } finally {
      await broker.stop();
    }
  });
});
