import { extractApiKey, generateApiKey, hashApiKey, isWellFormedKey, modeOfKey, readablePrefix } from "../../lib/api-keys";

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
    [{ authorization: "Bearer abc" }, null],
    [{ authorization: "Bearer abc", "x-api-key": "def" }, "def"],
    [{ authorization: "ApiKey" }, null],
    [{ "x-api-key": "" }, null],
    [{}, null]
  ])("extracts the key from %j", (headers, expected) => {
    expect(extractApiKey(headers)).toBe(expected);
  });
});
