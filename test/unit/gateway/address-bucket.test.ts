import { addressBucket } from "../../../services/gateway/http/client-address";

/** What a per-address limit counts by (public tracking, label downloads). */
describe("addressBucket", () => {
  test("IPv4: the address itself", () => {
    expect(addressBucket("198.51.100.7", 64)).toBe("198.51.100.7");
  });

  test("IPv4-mapped IPv6: the IPv4 address, so a dual-stack socket counts an IPv4 client once", () => {
    expect(addressBucket("::ffff:198.51.100.7", 64)).toBe("198.51.100.7");
    expect(addressBucket("::ffff:c633:6407", 64)).toBe("198.51.100.7");
  });

  test("IPv6: every address of one /64 in one bucket, whatever its spelling", () => {
    const buckets = new Set(
      ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:DB8:1:2:0:0:0:42", "2001:0db8:0001:0002:abcd::9"].map(a =>
        addressBucket(a, 64)
      )
    );
    expect([...buckets]).toEqual(["2001:db8:1:2::/64"]);
    expect(addressBucket("2001:db8:1:3::1", 64)).toBe("2001:db8:1:3::/64");
  });

  test("the prefix length is the operator's choice (a provider that delegates /56)", () => {
    expect(addressBucket("2001:db8:1:2ff::1", 56)).toBe("2001:db8:1:200::/56");
    expect(addressBucket("2001:db8:1:2::1", 128)).toBe("2001:db8:1:2::1/128");
    expect(addressBucket("2001:db8:1:2::1", 60)).toBe("2001:db8:1::/60");
  });

  test("something that is no address counts as itself", () => {
    expect(addressBucket("unknown", 64)).toBe("unknown");
  });
});
