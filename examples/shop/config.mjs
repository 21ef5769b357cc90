// The shop's settings, all from the environment (see README.md).

/** @param {NodeJS.ProcessEnv} env */
export function shopConfig(env = process.env) {
  const apiKey = env.RELAY_API_KEY ?? "";
  if (!apiKey.startsWith("rp_")) {
    throw new Error("RELAY_API_KEY is missing: give the sandbox key `npm start` printed (rp_sandbox_…)");
  }
  const port = Number(env.SHOP_PORT ?? 3001);
  const relayBaseUrl = (env.RELAY_BASE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  return {
    apiKey,
    port,
    relayBaseUrl,
    /** Where the customer's browser loads the picker from and searches relay points: the API's public address. */
    relayPublicUrl: (env.RELAY_PUBLIC_URL ?? relayBaseUrl).replace(/\/+$/, ""),
    /** The shop's own address, as the relay system reaches it for webhooks. */
    shopPublicUrl: (env.SHOP_PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ""),
    /** The webhook secret our operator gave you; or, for a local try, the back-office token to set the endpoint up yourself. */
    webhookSecret: env.RELAY_WEBHOOK_SECRET ?? "",
    backofficeToken: env.RELAY_BACKOFFICE_TOKEN ?? ""
  };
}
