import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { answerAsFile, codingFor, readStaticFile } from "../../../services/gateway/http/static-files";

const SCRIPT = Buffer.from(`export const words = ${JSON.stringify("relais ".repeat(200))};\n`);

describe("the gateway's files and pages: compressed by Accept-Encoding, with a validator", () => {
  test.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=1.0, gzip;q=0.8", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["GZIP", "gzip"],
    ["deflate", "identity"],
    ["gzip;q=0", "identity"],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["identity", "identity"],
    [undefined, "identity"],
    ["", "identity"]
  ])("Accept-Encoding %p → %p", (header, coding) => {
    expect(codingFor(header)).toBe(coding);
  });

  test("a script: the bytes of the coding asked for, Vary, and one ETag per coding, the same on every request", async () => {
    const br = await answerAsFile(SCRIPT, "text/javascript; charset=utf-8", "br, gzip", true);
    const gzip = await answerAsFile(SCRIPT, "text/javascript; charset=utf-8", "gzip", true);
    const plain = await answerAsFile(SCRIPT, "text/javascript; charset=utf-8", undefined, true);
    expect(brotliDecompressSync(br.body)).toEqual(SCRIPT);
    expect(gunzipSync(gzip.body)).toEqual(SCRIPT);
    expect(plain.body).toEqual(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 4);
    expect([br.headers["Content-Encoding"], gzip.headers["Content-Encoding"], plain.headers["Content-Encoding"]]).toEqual([
      "br",
      "gzip",
      undefined
    ]);
    for (const answer of [br, gzip, plain]) expect(answer.headers.Vary).toBe("Accept-Encoding");
    const tags = [br, gzip, plain].map(a => a.headers.ETag);
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}(-br|-gz)?"$/);
    expect((await answerAsFile(SCRIPT, "text/javascript; charset=utf-8", "br", true)).headers.ETag).toBe(br.headers.ETag);
    const changed = await answerAsFile(Buffer.concat([SCRIPT, Buffer.from(" ")]), "text/javascript", "br", true);
    expect(changed.headers.ETag).not.toBe(br.headers.ETag);
  });

  test("an image, a tiny body and a failure: no compression where it saves nothing, no validator on an error", async () => {
    const png = Buffer.alloc(4_000, 7);
    expect((await answerAsFile(png, "image/png", "br", true)).headers).toEqual({ ETag: expect.stringMatching(/^"/) });
    expect((await answerAsFile(png, "image/png", "br", true)).body).toBe(png);
    expect((await answerAsFile("ok", "text/html; charset=utf-8", "gzip", true)).headers["Content-Encoding"]).toBeUndefined();
    const page = "<p>introuvable</p>".repeat(40);
    expect((await answerAsFile(page, "text/html; charset=utf-8", "gzip", false)).headers).toEqual({
      Vary: "Accept-Encoding",
      "Content-Encoding": "gzip"
    });
  });

  test("a file is read once, with its date; a missing one is null", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-files-"));
    const file = path.join(dir, "app.js");
    fs.writeFileSync(file, SCRIPT);
    const read = readStaticFile(file)!;
    expect(read.body).toEqual(SCRIPT);
    expect(new Date(read.lastModified).toUTCString()).toBe(read.lastModified);
    expect(readStaticFile(file)).toBe(read);
    // Kept: compressed once, then the same bytes.
    expect((await answerAsFile(read.body, "text/javascript", "br", true)).body).toBe(
      (await answerAsFile(read.body, "text/javascript", "br", true)).body
    );
    expect(readStaticFile(path.join(dir, "missing.js"))).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
