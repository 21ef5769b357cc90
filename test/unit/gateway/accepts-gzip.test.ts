import type { IncomingMessage } from "node:http";
import { clientOf } from "../../../services/gateway/tracking-page.mixin";

const asking = (acceptEncoding?: string) =>
  clientOf(
    {
      headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      socket: { remoteAddress: "127.0.0.1" }
    } as unknown as IncomingMessage,
    0
  ).acceptsGzip;

describe("clientOf: whether the browser takes gzip (the counter app's files)", () => {
  test.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["GZIP", true],
    ["deflate, br", false],
    ["gzip;q=0", false],
    ["br, gzip; q=0.000", false],
    ["x-gzip-not", false],
    [undefined, false]
  ])("Accept-Encoding %p → %p", (header, expected) => {
    expect(asking(header)).toBe(expected);
  });
});
