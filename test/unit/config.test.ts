import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ALL_SERVICES, ConfigError, loadConfig } from "../../lib/config";
import { requireSecret, resolveSecrets } from "../../lib/secrets";

describe("configuration from the environment", () => {
  test("no variables at all: embedded, port 3000, every service, 60 requests a minute", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicBaseUrl: "http://localhost:3000",
      transporter: null,
      databaseUrl: null,
      redisUrl: null,
      embedded: true,
      rateLimitPerMinute: 60,
      publicTrackingPerMinute: 30
    });
    expect(config.services).toEqual([...ALL_SERVICES]);
  });

  test("distributed settings are read as given", () => {
    const config = loadConfig({
      TRANSPORTER: "nats://127.0.0.1:4222",
      DATABASE_URL: "postgres://postgres@127.0.0.1/relay",
      REDIS_URL: "redis://127.0.0.1:6379",
      SERVICES: "auth, gateway",
      PUBLIC_BASE_URL: "https://api.example.dz/"
    });
    expect(config.embedded).toBe(false);
    expect(config.services).toEqual(["auth", "gateway"]);
    expect(config.publicBaseUrl).toBe("https://api.example.dz");
  });

  test.each([
    [{ PORT: "http" }, /PORT/],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, /RATE_LIMIT_PER_MINUTE/],
    [{ PUBLIC_TRACKING_PER_MINUTE: "-5" }, /PUBLIC_TRACKING_PER_MINUTE/],
    [{ SERVICES: "gateway,billing" }, /unknown service "billing"/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/]
  ])("a bad value is a clear error: %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test("embedded mode generates its secrets once and keeps them in DATA_DIR", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-secrets-"));
    const first = resolveSecrets(loadConfig({ DATA_DIR: dir }));
    const second = resolveSecrets(loadConfig({ DATA_DIR: dir }));
    expect(first.secrets.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(second.secrets).toEqual(first.secrets);
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o077).toBe(0);
    const overridden = resolveSecrets(loadConfig({ DATA_DIR: dir, BACKOFFICE_TOKEN: "mine" }));
    expect(overridden.secrets.backofficeToken).toBe("mine");
    fs.rmSync(dir, { recursive: true });
  });

  test("distributed mode never invents secrets: a missing one is a clear error", () => {
    const config = resolveSecrets(loadConfig({ DATABASE_URL: "postgres://x/y" }));
    expect(() => requireSecret(config, "encryptionKey")).toThrow(/ENCRYPTION_KEY is required/);
  });
});
