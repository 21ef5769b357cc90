// Atelier Nour, the example shop: a whole merchant integration on the SDK. A customer orders and
// picks a relay point in the checkout (<relay-point-picker>); the shop creates the parcel (cash on
// delivery, the order's own Idempotency-Key), links its label, and follows it through verified
// webhooks. Start: see README.md (`npm run shop` at the repository's root).
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
// In your project: import { RelayParcels, … } from "@relay-parcels/sdk";
import { RelayParcels, WebhookVerificationError } from "../../sdk/typescript/dist/esm/index.js";
import { orderRefusal } from "./order-errors.mjs";
import { PRODUCT } from "./catalogue.mjs";
import { shopConfig } from "./config.mjs";
import { Orders } from "./orders.mjs";
import { checkoutPage, notFoundPage, orderPage, productPage } from "./pages.mjs";

const MAX_BODY_BYTES = 64 * 1024;

/** One line on the shop's log (stdout; errors on stderr). Never a key, a secret or a customer's phone. */
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const logError = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

/** @param {http.IncomingMessage} req @returns {Promise<Buffer>} */
function rawBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", chunk => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** @param {http.ServerResponse} res @param {number} status @param {string} html */
function sendHtml(res, status, html) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(html);
}

/**
 * The webhook endpoint, set up at start when a back-office token is given (a local try); in
 * production our operator sets it up once and gives you its secret (RELAY_WEBHOOK_SECRET).
 * @param {ReturnType<typeof shopConfig>} config @param {RelayParcels} relay
 */
async function webhookSecret(config, relay) {
  if (config.webhookSecret) return config.webhookSecret;
  if (!config.backofficeToken) {
    throw new Error(
      "Give RELAY_WEBHOOK_SECRET (from our operator), or RELAY_BACKOFFICE_TOKEN (printed by `npm start`) to set the webhook up"
    );
  }
  const { organizationId } = await relay.health();
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const res = await fetch(`${config.relayBaseUrl}/api/backoffice/v1/organizations/${organizationId}/webhook`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${config.backofficeToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url: `${config.shopPublicUrl}/webhooks/relay`, secret })
  });
  if (!res.ok) throw new Error(`Setting the webhook up failed: ${res.status} ${await res.text()}`);
  return secret;
}

/** @param {ReturnType<typeof shopConfig>} config */
export async function startShop(config) {
  const relay = new RelayParcels({ apiKey: config.apiKey, baseUrl: config.relayBaseUrl, appInfo: "atelier-nour-example/1.0" });
  const secret = await webhookSecret(config, relay);
  const orders = new Orders();

  /** @param {URLSearchParams} form */
  async function placeOrder(form) {
    const values = Object.fromEntries(form);
    const orderId = `AN-${Date.now().toString(36).toUpperCase()}-${randomBytes(2).toString("hex").toUpperCase()}`;
    // The order's own key: were the answer lost and the customer to submit again, no second parcel, no second debit.
    const idempotencyKey = `order-${orderId}`;
    const parcel = await relay.parcels.create(
      {
        recipientName: values.name ?? "",
        recipientPhone: values.phone ?? "",
        weightG: PRODUCT.weightG,
        destinationRelayCode: values.relay_code ?? "",
        codAmountDzd: PRODUCT.priceDzd,
        declaredValueDzd: PRODUCT.priceDzd
      },
      { idempotencyKey }
    );
    orders.add({
      id: orderId,
      createdAt: new Date().toISOString(),
      customerName: values.name ?? "",
      customerPhone: values.phone ?? "",
      relayCode: parcel.destinationRelayCode,
      parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber,
      idempotencyKey,
      deliveryStatus: parcel.status,
      sequence: 0,
      webhookDeliveries: []
    });
    return orderId;
  }

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function route(req, res) {
    const url = new URL(req.url ?? "/", "http://shop.invalid");
    const orderMatch = /^\/orders\/([A-Z0-9-]{1,40})(\/label)?$/.exec(url.pathname);
    if (req.method === "GET" && url.pathname === "/") return sendHtml(res, 200, productPage());
    if (req.method === "GET" && url.pathname === "/checkout")
      return sendHtml(res, 200, checkoutPage({ relayPublicUrl: config.relayPublicUrl }));
    if (req.method === "POST" && url.pathname === "/checkout") {
      const form = new URLSearchParams((await rawBody(req)).toString("utf8"));
      try {
        const orderId = await placeOrder(form);
        res.writeHead(303, { Location: `/orders/${orderId}` });
        return res.end();
      } catch (err) {
        const refusal = orderRefusal(err);
        if (!refusal) throw err;
        // A customer's mistake (a phone number, a relay point that closed meanwhile) is said on the form, in French
        // (order-errors.mjs); anything else is ours. The API's own message, for developers, goes to the log.
        logError(`order refused: ${refusal.reference} key ${err.idempotencyKey ?? "-"}: ${err.message}`);
        const error = refusal.lines.length
          ? { title: "Vérifiez votre commande :", lines: refusal.lines }
          : { title: `La commande n'a pas pu être enregistrée, réessayez dans un instant (réf. ${refusal.reference}).`, lines: [] };
        return sendHtml(
          res,
          refusal.status,
          checkoutPage({ relayPublicUrl: config.relayPublicUrl, error, values: Object.fromEntries(form) })
        );
      }
    }
    if (req.method === "GET" && orderMatch) {
      const order = orders.get(orderMatch[1]);
      if (!order) return sendHtml(res, 404, notFoundPage());
      if (orderMatch[2]) {
        // A fresh pre-signed label URL each time (they last 30 minutes): the link on the page never goes stale.
        const parcel = await relay.parcels.get(order.parcelId);
        res.writeHead(302, { Location: parcel.labelUrl ?? "/" });
        return res.end();
      }
      return sendHtml(res, 200, orderPage({ order, relayPublicUrl: config.relayPublicUrl }));
    }
    if (req.method === "POST" && url.pathname === "/webhooks/relay") {
      const body = await rawBody(req);
      try {
        const { deliveryId, event } = relay.webhooks.verify(body, req.headers, secret);
        const parcel = event.data && typeof event.data === "object" && "parcel" in event.data ? event.data.parcel : undefined;
        if (parcel && typeof parcel.id === "string" && typeof parcel.status === "string") {
          orders.applyDelivery(deliveryId, parcel.id, parcel.status, "sequence" in event ? Number(event.sequence) : undefined);
        }
        res.writeHead(204);
        return res.end();
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        logError(`webhook refused: ${err.reason}`);
        res.writeHead(401);
        return res.end();
      }
    }
    return sendHtml(res, 404, notFoundPage());
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch(err => {
      logError(`error ${randomUUID()}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendHtml(res, 500, notFoundPage().replace("Page introuvable", "Une erreur est survenue"));
      else res.end();
    });
  });
  await new Promise(resolve => server.listen(config.port, resolve));
  return { server, orders, url: `http://localhost:${config.port}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const config = shopConfig();
  startShop(config).then(
    ({ url }) => log(`Atelier Nour (example shop) on ${url}, relay-parcels at ${config.relayBaseUrl}`),
    err => {
      logError(err instanceof Error ? err.message : err);
      process.exit(1);
    }
  );
}
