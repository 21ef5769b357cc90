import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { AppError } from "../../../lib/errors";
import { readFormBody, readJsonBody } from "../../../services/gateway/http/json-body";

/** A real server, so that the reader sees real requests: headers, chunks, encodings. */
let server: http.Server;
let url: string;
const LIMIT = 1024;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    try {
      const body = req.url === "/form" ? await readFormBody(req, LIMIT) : await readJsonBody(req, LIMIT);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ body: body ?? null }));
    } catch (err) {
      const e = err as AppError;
      res
        .writeHead(e.code, { "Content-Type": "application/json", Connection: "close" })
        .end(JSON.stringify({ code: e.type, details: e.data?.details }));
    }
  });
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise(resolve => server.close(resolve)));

async function post(body: Buffer | string, headers: Record<string, string> = { "Content-Type": "application/json" }) {
  const res = await fetch(url, { method: "POST", headers, body });
  return { status: res.status, json: (await res.json()) as { body?: unknown; code?: string } };
}

test("reads a JSON object, plain or compressed", async () => {
  const text = JSON.stringify({ a: "é", b: [1, 2] });
  expect((await post(text)).json.body).toEqual({ a: "é", b: [1, 2] });
  for (const [encoding, coder] of [
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync]
  ] as const) {
    const res = await post(coder(text), { "Content-Type": "application/json; charset=UTF-8", "Content-Encoding": encoding });
    expect(res.json.body).toEqual({ a: "é", b: [1, 2] });
  }
});

test("an empty body is no body", async () => {
  expect((await fetch(url, { method: "POST" })).status).toBe(200);
  expect((await post("   ")).json.body).toBeNull();
});

test.each([
  ["not JSON", "{a", {}, 400, "VALIDATION_FAILED"],
  ["not an object", "[1]", {}, 400, "VALIDATION_FAILED"],
  ["not UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), {}, 400, "VALIDATION_FAILED"],
  ["too large", `{"a":"${"x".repeat(2000)}"}`, {}, 413, "PAYLOAD_TOO_LARGE"],
  ["a bomb", gzipSync(Buffer.alloc(100_000, " ")), { "Content-Encoding": "gzip" }, 413, "PAYLOAD_TOO_LARGE"],
  ["not gzip", "{}", { "Content-Encoding": "gzip" }, 400, "VALIDATION_FAILED"],
  ["an unknown encoding", "{}", { "Content-Encoding": "compress" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
  ["text/plain", "{}", { "Content-Type": "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
  ["latin1", "{}", { "Content-Type": "application/json; charset=latin1" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
  ["a prototype key", '{"__proto__":{"x":1}}', {}, 400, "VALIDATION_FAILED"],
  ["a NUL", '{"a":"\\u0000"}', {}, 400, "VALIDATION_FAILED"]
])("%s is refused", async (_what, body, extraHeaders, status, code) => {
  const res = await post(body, { "Content-Type": "application/json", ...extraHeaders });
  expect(res.status).toBe(status);
  expect(res.json.code).toBe(code);
});

test("without a Content-Type, a body is a 415", async () => {
  const res = await fetch(url, { method: "POST", body: new Uint8Array(Buffer.from("{}")) });
  expect(res.status).toBe(415);
});

describe("an HTML form's body (the tracking pages)", () => {
  const postForm = async (body: string, headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" }) => {
    const res = await fetch(`${url}/form`, { method: "POST", headers, body });
    return { status: res.status, json: (await res.json()) as { body?: unknown; code?: string } };
  };

  test("reads each field's first value as text, UTF-8 included", async () => {
    const answer = await postForm("code=123456&destinationRelayCode=DZ-16-KOUBA&city=B%C3%A9char&city=other&lang=ar");
    expect(answer.json.body).toEqual({ code: "123456", destinationRelayCode: "DZ-16-KOUBA", city: "Béchar", lang: "ar" });
  });

  test("refuses JSON and other types (415), too large a body (413), and text no field may hold (400)", async () => {
    expect((await postForm('{"code":"1"}', { "Content-Type": "application/json" })).status).toBe(415);
    expect((await postForm(`city=${"a".repeat(2 * LIMIT)}`)).status).toBe(413);
    expect((await postForm("city=a%00b")).json.code).toBe("VALIDATION_FAILED");
  });
});
