import { LookupAddress } from "node:dns";
import { AppError } from "../../../lib/errors";
import { LookupAll, assertPublicWebhookUrl, isPublicAddress } from "../../../services/webhooks/ssrf";

const PUBLIC_V4 = "93.184.215.14";
const PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";

/** A resolver that knows a fixed table and records what it was asked. */
function fakeLookup(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string, options: { all: true }): Promise<LookupAddress[]> => {
    calls.push(hostname);
    expect(options).toEqual({ all: true });
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map(address => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

async function refusal(promise: Promise<void>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected the URL to be refused");
}

describe("isPublicAddress", () => {
  it.each([PUBLIC_V4, "8.8.8.8", "1.1.1.1", PUBLIC_V6, "2a00:1450:4007:80e::200e", "::ffff:8.8.8.8"])("accepts the public address %s", ip =>
    expect(isPublicAddress(ip)).toBe(true)
  );

  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback, elsewhere in 127/8", "127.255.0.9"],
    ["private 10/8", "10.1.2.3"],
    ["private 172.16/12", "172.16.0.1"],
    ["private 172.16/12, top", "172.31.255.254"],
    ["private 192.168/16", "192.168.1.10"],
    ["link-local", "169.254.10.20"],
    ["cloud metadata", "169.254.169.254"],
    ["unspecified", "0.0.0.0"],
    ["this-network 0/8", "0.1.2.3"],
    ["broadcast", "255.255.255.255"],
    ["multicast", "224.0.0.251"],
    ["CGNAT 100.64/10", "100.64.0.1"],
    ["CGNAT 100.64/10, top", "100.127.255.254"],
    ["documentation", "192.0.2.10"],
    ["benchmarking", "198.18.0.1"],
    ["reserved 240/4", "240.0.0.1"],
    ["IPv6 loopback", "::1"],
    ["IPv6 unspecified", "::"],
    ["IPv6 unique local fc00::/7", "fd12:3456:789a::1"],
    ["IPv6 unique local, fc half", "fc00::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 link-local with a zone", "fe80::1%eth0"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped metadata, hex form", "::ffff:a9fe:a9fe"],
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["NAT64 of a private address", "64:ff9b::a00:1"],
    ["6to4", "2002:a00:1::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv6 documentation", "2001:db8::1"],
    ["not an address", "example.com"],
    ["empty", ""]
  ])("refuses %s (%s)", (_case, ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe("assertPublicWebhookUrl", () => {
  const lookup = fakeLookup({
    "hooks.merchant.dz": [PUBLIC_V4, PUBLIC_V6],
    localhost: ["127.0.0.1", "::1"],
    "internal.merchant.dz": ["10.0.0.12"],
    "split.merchant.dz": [PUBLIC_V4, "192.168.0.10"],
    "metadata.merchant.dz": ["169.254.169.254"],
    "mapped.merchant.dz": ["::ffff:127.0.0.1"],
    "empty.merchant.dz": []
  });

  it("accepts an http(s) URL whose host resolves only to public addresses", async () => {
    await expect(assertPublicWebhookUrl("https://hooks.merchant.dz/relay/events?x=1", false, lookup)).resolves.toBeUndefined();
    await expect(assertPublicWebhookUrl("http://hooks.merchant.dz:8080/", false, lookup)).resolves.toBeUndefined();
    expect(lookup.calls).toContain("hooks.merchant.dz");
  });

  it("accepts a public IP literal without asking DNS", async () => {
    const strictLookup = fakeLookup({});
    await expect(assertPublicWebhookUrl(`https://${PUBLIC_V4}/hook`, false, strictLookup)).resolves.toBeUndefined();
    await expect(assertPublicWebhookUrl(`https://[${PUBLIC_V6}]/hook`, false, strictLookup)).resolves.toBeUndefined();
    expect(strictLookup.calls).toEqual([]);
  });

  it.each([
    ["localhost", "http://localhost:3000/hook"],
    ["a name for a private address", "https://internal.merchant.dz/hook"],
    ["a name with one private address among public ones", "https://split.merchant.dz/hook"],
    ["a name for the cloud metadata address", "http://metadata.merchant.dz/latest/meta-data/"],
    ["a name for an IPv4-mapped loopback", "https://mapped.merchant.dz/"],
    ["a loopback literal", "http://127.0.0.1:8080/"],
    ["a hexadecimal loopback literal", "http://0x7f.0.0.1/"],
    ["a decimal loopback literal", "http://2130706433/"],
    ["a short loopback literal", "http://127.1/"],
    ["an IPv6 loopback literal", "http://[::1]/"],
    ["an IPv4-mapped IPv6 literal", "http://[::ffff:169.254.169.254]/"],
    ["the unspecified address", "http://0.0.0.0:3000/"]
  ])("refuses %s", async (_case, url) => {
    const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
    expect(err.type).toBe("VALIDATION_FAILED");
    expect(err.code).toBe(400);
    expect(err.data?.details).toEqual([{ field: "url", message: expect.stringContaining("non-public address") }]);
  });

  it("names the kind of address but not the address itself", async () => {
    const err = await refusal(assertPublicWebhookUrl("https://internal.merchant.dz/hook", false, lookup));
    expect(err.data?.details?.[0].message).toContain("private");
    expect(err.data?.details?.[0].message).not.toContain("10.0.0.12");
  });

  it.each([
    ["http://[::1]/", "loopback"],
    ["http://[::]/", "unspecified"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::127.0.0.1]/", "IPv4-compatible IPv6 address"]
  ])("says what kind of address %s is (%s)", async (url, kind) => {
    const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
    expect(err.data?.details?.[0].message).toMatch(new RegExp(`\\(${kind}\\)$`));
  });

  it("refuses a host that does not resolve, or resolves to nothing", async () => {
    for (const url of ["https://nowhere.merchant.dz/", "https://empty.merchant.dz/"]) {
      const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
      expect(err.data?.details).toEqual([{ field: "url", message: expect.stringContaining("cannot be resolved") }]);
    }
  });

  it.each([
    ["ftp", "ftp://hooks.merchant.dz/"],
    ["file", "file:///etc/passwd"],
    ["gopher", "gopher://hooks.merchant.dz:70/"],
    ["javascript", "javascript:alert(1)"]
  ])("refuses the %s scheme", async (_case, url) => {
    const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
    expect(err.data?.details).toEqual([{ field: "url", message: "must use http or https" }]);
  });

  it.each(["not a url", "", "/relative/path", "https://"])("refuses %j as not a URL", async url => {
    const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
    expect(err.data?.details?.[0].field).toBe("url");
  });

  it.each(["https://user:pass@hooks.merchant.dz/", "https://token@hooks.merchant.dz/"])("refuses credentials in %s", async url => {
    const err = await refusal(assertPublicWebhookUrl(url, false, lookup));
    expect(err.data?.details).toEqual([{ field: "url", message: "must not contain credentials" }]);
  });

  describe("when private targets are allowed (WEBHOOK_ALLOW_PRIVATE=true)", () => {
    it("accepts loopback and private hosts without resolving them", async () => {
      const strictLookup = fakeLookup({});
      await expect(assertPublicWebhookUrl("http://localhost:4000/hook", true, strictLookup)).resolves.toBeUndefined();
      await expect(assertPublicWebhookUrl("http://10.0.0.12/hook", true, strictLookup)).resolves.toBeUndefined();
      expect(strictLookup.calls).toEqual([]);
    });

    it("still refuses other schemes and credentials", async () => {
      await refusal(assertPublicWebhookUrl("file:///etc/passwd", true, lookup));
      await refusal(assertPublicWebhookUrl("http://u:p@localhost/", true, lookup));
    });
  });
});
