import { readApiKey, generateApiKey, hashApiKey, isWellFormedKey, modeOfKey, readablePrefix } from "../../lib/api-keys";

describe("API keys", () => {
  test("live and sandbox keys carry different fixed prefixes", () => {
    const live = generateApiKey("live");
    const sandbox = generateApiKey("sandbox");
    expect(live.key).toMatch(/^rp_live_[A-Za-z0-9]{40}$/);
    expect(sandbox.key).toMatch(/^rp_sandbox_[A-Za-z0-9]{40}$/);
    expect(modeOfKey(live.key)).toBe("live");
    expect(modeOfKey(sandbox.key)).toBe("sandbox");
    expect(modeOfKey("sk_live_abc")).toBeNull();
  });

  test("the readable prefix shows the mode and 8 characters, never the whole secret", () => {
    const { key, keyPrefix } = generateApiKey("live");
    expect(keyPrefix).toBe(key.slice(0, 16));
    expect(readablePrefix(key)).toBe(keyPrefix);
  });

  test("keys are unique and their hash is a stable SHA-256", () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey("live").key));
    expect(keys.size).toBe(500);
    const { key, keyHash } = generateApiKey("sandbox");
    expect(keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(keyHash);
    expect(hashApiKey(key + "x")).not.toBe(keyHash);
  });

  test("shape check", () => {
    expect(isWellFormedKey(generateApiKey("live").key)).toBe(true);
    expect(isWellFormedKey("rp_live_short")).toBe(false);
    expect(isWellFormedKey("rp_live_" + "a".repeat(40) + " ")).toBe(false);
  });

  test.each([
    [{ authorization: "ApiKey abc" }, "abc"],
    [{ authorization: "apikey   abc  " }, "abc"],
    [{ "x-api-key": " abc " }, "abc"],
    [{ authorization: "ApiKey abc", "x-api-key": "abc" }, "abc"],
    [{ authorization: "Bearer abc" }, null],
    // Another scheme beside a key is ambiguous: refused, not silently ignored.
    [{ authorization: "Bearer abc", "x-api-key": "def" }, null],
    // Two different keys: refused, never "the first one wins".
    [{ authorization: "ApiKey abc", "x-api-key": "def" }, null],
    [{ authorization: "ApiKey" }, null],
    [{ authorization: "ApiKey a b" }, null],
    [{ "x-api-key": "" }, null],
    [{}, null]
  ])("reads the key from %j", (headers, expected) => {
    const reading = readApiKey(headers);
    expect("key" in reading ? reading.key : null).toBe(expected);
    if (!("key" in reading)) expect(reading.problem.length).toBeGreaterThan(0);
  });
});
