import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ALL_SERVICES, ConfigError, loadConfig } from "../../lib/config";
import { requireSecret, resolveSecrets } from "../../lib/secrets";
import { checkServiceConfig } from "../../bin/service-config";

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
      publicTrackingPerMinute: 30,
      addressLimitIpv6Prefix: 64
    });
    expect(config.services).toEqual([...ALL_SERVICES]);
  });

  test("a stopping gateway leaves idle connections to their clients behind a balancer (distributed), not embedded", () => {
    const distributed = { DATABASE_URL: "postgres://postgres@127.0.0.1/relay" };
    expect(loadConfig(distributed).http.drainIdleMs).toBe(5_000);
    expect(loadConfig({ ...distributed, HTTP_KEEP_ALIVE_TIMEOUT_MS: "3000" }).http.drainIdleMs).toBe(3_000);
    expect(loadConfig({}).http.drainIdleMs).toBe(0);
    expect(loadConfig({ HTTP_DRAIN_IDLE_MS: "2000" }).http.drainIdleMs).toBe(2_000);
    expect(() => loadConfig({ HTTP_DRAIN_IDLE_MS: "-1" })).toThrow(/HTTP_DRAIN_IDLE_MS/);
  });

  test("the SSRF guard is on unless asked off, embedded too (a `docker run` of the image is embedded)", () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1/relay" }).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "true" }).webhookAllowPrivate).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: "maybe" })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
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

  test("TRANSPORTER may list several NATS servers: the client reconnects to another when one goes (issue 46)", () => {
    const servers = "nats://nats-0:4222,nats://nats-1:4222,nats://nats-2:4222";
    expect(loadConfig({ TRANSPORTER: servers }).transporter).toBe(servers);
  });

  test.each([
    [{ PORT: "http" }, /PORT/],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, /RATE_LIMIT_PER_MINUTE/],
    [{ PUBLIC_TRACKING_PER_MINUTE: "-5" }, /PUBLIC_TRACKING_PER_MINUTE/],
    [{ RATE_LIMIT_IPV6_PREFIX: "16" }, /RATE_LIMIT_IPV6_PREFIX/],
    [{ RATE_LIMIT_IPV6_PREFIX: "129" }, /RATE_LIMIT_IPV6_PREFIX/],
    [{ SERVICES: "gateway,billing" }, /unknown service "billing"/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    [{ LOG_FORMAT: "xml" }, /LOG_FORMAT must be one of short, json/],
    [{ PORT: "70000" }, /PORT must be an integer between 0 and 65535/],
    [{ METRICS_PORT: "0" }, /METRICS_PORT/],
    [{ DATABASE_URL: "mysql://db/relay" }, /DATABASE_URL must be a PostgreSQL URL/],
    [{ DATABASE_URL: "postgres://db" }, /DATABASE_URL must name a database/],
    [{ DATABASE_URL: "not a url" }, /DATABASE_URL must be a URL/],
    [{ TRANSPORTER: "kafka://broker:9092" }, /TRANSPORTER must be a transporter URL/],
    [{ TRANSPORTER: "nats//127.0.0.1:4222" }, /TRANSPORTER must be a URL/],
    [{ TRANSPORTER: "nats://nats-0:4222,redis://redis:6379" }, /TRANSPORTER must be a list of NATS URLs/],
    [{ REDIS_URL: "127.0.0.1:6379" }, /REDIS_URL must be a/],
    [{ REDIS_URL: "http://127.0.0.1:6379" }, /REDIS_URL must be a Redis URL/],
    [{ PUBLIC_BASE_URL: "api.example.dz" }, /PUBLIC_BASE_URL must be/],
    [{ NAMESPACE: "relay prod" }, /NAMESPACE must be/],
    [{ SMS_PROVIDER: "http" }, /SMS_HTTP_URL is required when SMS_PROVIDER=http/],
    [{ SMS_HTTP_URL: "ftp://sms" }, /SMS_HTTP_URL must be an absolute http\(s\) URL/],
    [{ TRACING_EXPORTER: "datadog" }, /TRACING_EXPORTER must be one of none, console, zipkin, jaeger/],
    [{ TRACING_EXPORTER: "zipkin" }, /TRACING_URL is required when TRACING_EXPORTER=zipkin/],
    [{ TRACING_SAMPLE_RATE: "2" }, /TRACING_SAMPLE_RATE must be a number between 0 and 1/],
    [{ SHUTDOWN_TIMEOUT_MS: "soon" }, /SHUTDOWN_TIMEOUT_MS/]
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
    expect(first.secrets.pickupPassSigningKey).toMatch(/^[0-9a-f]{64}$/);
    fs.rmSync(dir, { recursive: true });
  });

  test("a DATA_DIR whose secrets.json predates the pickup passes' key gets one, kept apart and the same on every start", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-secrets-"));
    const old = { backofficeToken: "bo_0123456789abcdef", encryptionKey: "ab".repeat(32), labelUrlSecret: "cd".repeat(32) };
    fs.writeFileSync(path.join(dir, "secrets.json"), JSON.stringify(old), { mode: 0o600 });
    const first = resolveSecrets(loadConfig({ DATA_DIR: dir }));
    expect(first.secrets).toEqual({ ...old, pickupPassSigningKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(resolveSecrets(loadConfig({ DATA_DIR: dir })).secrets).toEqual(first.secrets);
    expect(fs.statSync(path.join(dir, "secret-pickupPassSigningKey.txt")).mode & 0o077).toBe(0);
    fs.rmSync(dir, { recursive: true });
  });

  test("distributed mode never invents secrets: a missing one is a clear error", () => {
    const config = resolveSecrets(loadConfig({ DATABASE_URL: "postgres://x/y" }));
    expect(() => requireSecret(config, "encryptionKey")).toThrow(/ENCRYPTION_KEY is required/);
  });

  describe("what each process checks before it starts (bin/main.ts)", () => {
    const KEY = "ab".repeat(32);
    const distributed = (env: Record<string, string>) =>
      resolveSecrets(
        loadConfig({
          DATABASE_URL: "postgres://postgres@127.0.0.1/relay",
          BACKOFFICE_TOKEN: "bo_0123456789abcdef",
          LABEL_URL_SECRET: "0123456789abcdef0123",
          ENCRYPTION_KEY: KEY,
          PICKUP_PASS_SIGNING_KEY: KEY,
          ...env
        })
      );

    test("good secrets pass, for every service", () => {
      expect(() => checkServiceConfig(distributed({}))).not.toThrow();
    });

    test.each([
      [{ ENCRYPTION_KEY: "0" }, /ENCRYPTION_KEY must be 64 hexadecimal characters/],
      [{ ENCRYPTION_KEY: KEY.slice(2) }, /ENCRYPTION_KEY must be 64 hexadecimal characters/],
      [{ ENCRYPTION_KEY: "zz" + KEY.slice(2) }, /ENCRYPTION_KEY must be 64 hexadecimal characters/],
      [{ BACKOFFICE_TOKEN: "short" }, /BACKOFFICE_TOKEN must be at least 16 characters/],
      [{ LABEL_URL_SECRET: "short" }, /LABEL_URL_SECRET must be at least 16 characters/],
      [{ PICKUP_PASS_SIGNING_KEY: "ab" }, /PICKUP_PASS_SIGNING_KEY must be 64 hexadecimal characters/]
    ])("a malformed secret stops every process, whatever it runs: %j", (env, message) => {
      for (const services of ["auth", "gateway", "parcels"]) {
        expect(() => checkServiceConfig(distributed({ ...env, SERVICES: services }))).toThrow(message);
      }
    });

    test("the message names the variable, never its value", () => {
      const secret = "not-hex-but-secret-looking-value-0123456789";
      expect(() => checkServiceConfig(distributed({ ENCRYPTION_KEY: secret }))).toThrow(ConfigError);
      try {
        checkServiceConfig(distributed({ ENCRYPTION_KEY: secret }));
      } catch (err) {
        expect((err as Error).message).not.toContain(secret);
      }
    });

    test.each([
      ["parcels", "ENCRYPTION_KEY"],
      ["notifications", "ENCRYPTION_KEY"],
      ["webhooks", "ENCRYPTION_KEY"],
      ["labels", "LABEL_URL_SECRET"],
      ["gateway", "BACKOFFICE_TOKEN"],
      ["parcels", "PICKUP_PASS_SIGNING_KEY"]
    ])("%s will not start without %s in distributed mode", (service, variable) => {
      const config = distributed({ SERVICES: service });
      const field = {
        ENCRYPTION_KEY: "encryptionKey",
        LABEL_URL_SECRET: "labelUrlSecret",
        BACKOFFICE_TOKEN: "backofficeToken",
        PICKUP_PASS_SIGNING_KEY: "pickupPassSigningKey"
      }[variable]!;
      const missing = { ...config, secrets: { ...config.secrets, [field]: undefined } };
      expect(() => checkServiceConfig(missing)).toThrow(new RegExp(`${variable} is required by the ${service} service`));
    });

    test("a service that needs no secret starts without them", () => {
      const config = resolveSecrets(loadConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1/relay", SERVICES: "auth,wallet" }));
      expect(() => checkServiceConfig(config)).not.toThrow();
    });
  });
});

describe("retention periods (issue 48)", () => {
  test("the history and the SMS log are kept a year by default, personal data 180 days", () => {
    expect(loadConfig({})).toMatchObject({ piiRetentionDays: 180, historyCompactDays: 365, smsLogRetentionDays: 365 });
  });

  test.each(["HISTORY_COMPACT_DAYS", "SMS_LOG_RETENTION_DAYS"])("%s shorter than PII_RETENTION_DAYS is refused, naming both", name => {
    expect(() => loadConfig({ PII_RETENTION_DAYS: "200", [name]: "190" })).toThrow(
      new RegExp(`${name} must not be shorter than PII_RETENTION_DAYS`)
    );
    expect(loadConfig({ PII_RETENTION_DAYS: "200", [name]: "200" })).toMatchObject({ piiRetentionDays: 200 });
  });
});
