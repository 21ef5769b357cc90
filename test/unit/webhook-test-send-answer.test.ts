import { Readable } from "node:stream";
import { answeredFromPublicAddress, firstBytes } from "../../services/webhooks/webhook-sender";

/** What a test-send shows of an answer (services/webhooks/replay-and-test.ts). */

describe("the body excerpt of a test-send", () => {
  test("at most the asked bytes, without a character cut in two", async () => {
    const body = `{"ok":true,"padding":"${"é".repeat(1500)}"}`;
    const excerpt = await firstBytes(Readable.from([Buffer.from(body)]), 1024);
    expect(body.startsWith(excerpt)).toBe(true);
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(excerpt)).toBeGreaterThan(1020);
  });

  test("a short body whole", async () => {
    expect(await firstBytes(Readable.from([Buffer.from("ok")]), 1024)).toBe("ok");
  });
});

describe("whose answer may be shown", () => {
  test.each([
    ["93.184.215.14", true],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true],
    ["127.0.0.1", false],
    ["::1", false],
    ["::ffff:127.0.0.1", false],
    ["10.1.2.3", false],
    ["169.254.169.254", false]
  ])("a connection to %s: %s", (remoteAddress, shown) => {
    expect(answeredFromPublicAddress({ socket: { remoteAddress } })).toBe(shown);
  });

  test("no known address: not shown", () => {
    expect(answeredFromPublicAddress({ socket: {} })).toBe(false);
    expect(answeredFromPublicAddress(undefined)).toBe(false);
  });
});
