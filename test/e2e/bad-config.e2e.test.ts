import path from "node:path";
import { ROOT, startProcess } from "../helpers/processes";

/**
 * Issue 13: a process with a bad variable stops at start, exit code 2, with a message naming the
 * variable and never its value, before it opens any connection (so no server is needed here).
 */
const KEY = "ab".repeat(32);
const DISTRIBUTED = {
  DATABASE_URL: "postgres://relay@127.0.0.1:5432/relay",
  TRANSPORTER: "nats://127.0.0.1:4222",
  BACKOFFICE_TOKEN: "bo_0123456789abcdef",
  LABEL_URL_SECRET: "0123456789abcdef0123",
  PICKUP_PASS_SIGNING_KEY: KEY,
  ENCRYPTION_KEY: KEY
};

async function exitOf(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], env);
  const code = await new Promise<number | null>(resolve => proc.child.once("exit", c => resolve(c)));
  return { code, output: proc.output() };
}

describe("a process with a bad variable does not start", () => {
  test.each([
    // What the unquoted 000…0 of the old compose file became: the YAML number 0.
    ["parcels", { ENCRYPTION_KEY: "0" }, "ENCRYPTION_KEY must be 64 hexadecimal characters"],
    ["webhooks", { ENCRYPTION_KEY: "0" }, "ENCRYPTION_KEY must be 64 hexadecimal characters"],
    ["wallet", { DATABASE_URL: "postgres//relay@db/relay" }, "DATABASE_URL must be a URL"],
    ["auth", { TRANSPORTER: "nats:/nowhere" }, "TRANSPORTER must be a transporter URL"],
    ["gateway", { REDIS_URL: "redis-host:6379" }, "REDIS_URL must be a"],
    ["gateway", { PORT: "80a" }, "PORT must be an integer between 0 and 65535"],
    ["labels", { LABEL_URL_SECRET: "" }, "LABEL_URL_SECRET is required by the labels service"],
    ["parcels", { PICKUP_PASS_SIGNING_KEY: "" }, "PICKUP_PASS_SIGNING_KEY is required by the parcels service"],
    ["parcels", { PICKUP_PASS_SIGNING_KEY: "0" }, "PICKUP_PASS_SIGNING_KEY must be 64 hexadecimal characters"]
  ])("SERVICES=%s with %j: exit 2 and the variable named", async (service, env, message) => {
    const { code, output } = await exitOf({ ...DISTRIBUTED, ...env, SERVICES: service });
    expect(code).toBe(2);
    expect(output).toContain(`Configuration error: ${message}`);
    // Nothing started, so nothing was half-done.
    expect(output).not.toContain("ServiceBroker");
    for (const value of Object.values(env)) if (value.length > 3) expect(output).not.toContain(value);
  });
});
