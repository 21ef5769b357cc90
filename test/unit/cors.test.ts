import { ConfigError, loadConfig } from "../../lib/config";
import { isOriginAllowed, parseCorsOrigins } from "../../lib/http/cors";

test("no CORS_ORIGINS allows no origin", () => {
  expect(isOriginAllowed(parseCorsOrigins(null), "https://shop.example.dz")).toBe(false);
  expect(loadConfig({}).cors).toEqual({ kind: "none" });
});

test("a list allows exactly its origins; * allows any", () => {
  const policy = parseCorsOrigins("https://shop.example.dz, http://localhost:5173");
  expect(isOriginAllowed(policy, "https://shop.example.dz")).toBe(true);
  expect(isOriginAllowed(policy, "http://localhost:5173")).toBe(true);
  expect(isOriginAllowed(policy, "https://shop.example.dz.evil.com")).toBe(false);
  expect(isOriginAllowed(policy, "null")).toBe(false);
  expect(isOriginAllowed(parseCorsOrigins("*"), "https://anything.example")).toBe(true);
});

test.each(["shop.example.dz", "https://shop.example.dz/path", "ftp://x.dz"])(
  "CORS_ORIGINS=%s stops the start with a clear message",
  value => {
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
  }
);

test("HTTP time-outs are bounded and consistent", () => {
  expect(loadConfig({}).http).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxBodyBytes: 65_536 });
  expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: "60000", HTTP_REQUEST_TIMEOUT_MS: "30000" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
});
