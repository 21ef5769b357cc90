import { createHash } from "node:crypto";
import fs from "node:fs";
import { promisify } from "node:util";
import zlib from "node:zlib";
import Negotiator from "negotiator";

/**
 * What the gateway sends of a file or a page of its own (the counter app, the checkout picker and
 * Leaflet, the reference page's assets, the tracking pages, the example checkout): one mechanism,
 * applied by the root route to every answer that has a content type of its own
 * (services/gateway.service.ts, `answerAsFile`), so that a new app's files (the courier's) get it
 * by being served there.
 *
 * - **Compressed** when the client takes it: Brotli, else gzip, by `Accept-Encoding` and its
 *   q-values (`Vary: Accept-Encoding`). A file read once is compressed once, at its first request,
 *   at the highest levels, and kept beside it; a page made per request is compressed fast. Off the
 *   event loop, on the thread pool.
 * - **A validator**: an `ETag` of the bytes sent (one per encoding, as RFC 9110 §8.8.3 asks of
 *   representations), beside the `Last-Modified` a file read from disk carries; moleculer-web answers
 *   `304` to a matching `If-None-Match` or `If-Modified-Since`.
 * - **`HEAD`** is answered wherever `GET` is by the edge (gateway/edge.mixin.ts): the same status
 *   and headers, no body.
 */

export type Coding = "br" | "gzip" | "identity";

/** Text of every kind, and WebAssembly; PNG and the other images are compressed already. */
const COMPRESSIBLE_TYPE = /^(text\/|application\/(javascript|json|manifest\+json|wasm|xml)|image\/svg\+xml)/i;
/** Below this a compressed body and its header save nothing worth the work. */
const MIN_COMPRESSED_BYTES = 256;
/** Brotli's top level costs about 5 s a megabyte here; level 9 a tenth of that, for about 9 % more bytes. */
const LARGEST_TOP_LEVEL_BYTES = 256 * 1024;
const CODINGS: Coding[] = ["br", "gzip", "identity"];
const ETAG_SUFFIX: Record<Coding, string> = { br: "-br", gzip: "-gz", identity: "" };

interface Representation {
  body: Buffer;
  etag: string;
}

/** The representations of a body that is kept (a file's Buffer, served again and again): made once each. */
const keptRepresentations = new WeakMap<Buffer, { digest: string; codings: Map<Coding, Promise<Representation>> }>();
const keptBodies = new WeakSet<Buffer>();

/** The coding to send a body in, from the request's Accept-Encoding (identity when it names none we have). */
export function codingFor(acceptEncoding: string | undefined): Coding {
  // negotiator 1.x takes `preferred` (equal q-values go to Brotli first); its @types are of 0.6.
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as {
    encoding(available: Coding[], options: { preferred: Coding[] }): string | undefined;
  };
  const chosen = negotiator.encoding(CODINGS, { preferred: CODINGS });
  return (chosen as Coding | undefined) ?? "identity";
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * On the thread pool, never on the event loop: Brotli's top level takes seconds for a megabyte (the
 * reference page's bundle), during which the gateway would answer nothing. A kept file gets the
 * top level up to LARGEST_TOP_LEVEL_BYTES, a level a few times faster above it; a page, a fast one.
 */
function compress(body: Buffer, coding: Exclude<Coding, "identity">, kept: boolean): Promise<Buffer> {
  if (coding === "gzip") return gzip(body, { level: kept ? 9 : 6 });
  const quality = !kept ? 5 : body.length <= LARGEST_TOP_LEVEL_BYTES ? zlib.constants.BROTLI_MAX_QUALITY : 9;
  return brotli(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length }
  });
}

const digestOf = (body: Buffer) => createHash("sha256").update(body).digest("base64url").slice(0, 27);

async function made(body: Buffer, coding: Coding, digest: string, kept: boolean): Promise<Representation> {
  return { body: coding === "identity" ? body : await compress(body, coding, kept), etag: `"${digest}${ETAG_SUFFIX[coding]}"` };
}

/** A kept body's representation is made once, even for requests that arrive while it is being made. */
function representationOf(body: Buffer, coding: Coding): Promise<Representation> {
  if (!keptBodies.has(body)) return made(body, coding, digestOf(body), false);
  let variants = keptRepresentations.get(body);
  if (!variants) keptRepresentations.set(body, (variants = { digest: digestOf(body), codings: new Map() }));
  let representation = variants.codings.get(coding);
  if (!representation) variants.codings.set(coding, (representation = made(body, coding, variants.digest, true)));
  return representation;
}

export interface StaticFile {
  body: Buffer;
  /** The file's modification time, as an HTTP date. */
  lastModified: string;
}

const files = new Map<string, StaticFile>();

/**
 * A file the gateway serves, read once and kept (its compressed forms are then made once too);
 * null when it does not exist (an app not built: `npm run build`).
 */
export function readStaticFile(file: string): StaticFile | null {
  const cached = files.get(file);
  if (cached) return cached;
  try {
    const body = fs.readFileSync(file);
    const read = { body, lastModified: fs.statSync(file).mtime.toUTCString() };
    keptBodies.add(body);
    files.set(file, read);
    return read;
  } catch {
    return null;
  }
}

/** A body made once and served as a file (a script written in the code): compressed once, like a file's. */
export function keptBody(text: string): Buffer {
  const body = Buffer.from(text, "utf8");
  keptBodies.add(body);
  return body;
}

/**
 * The bytes to send for `body` of this content type, and the headers that go with them: its
 * encoding for this client, `Vary`, and its `ETag` when the answer is a success (`validated`).
 */
export async function answerAsFile(
  body: Buffer | string,
  type: string,
  acceptEncoding: string | undefined,
  validated: boolean
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const compressible = COMPRESSIBLE_TYPE.test(type) && bytes.length >= MIN_COMPRESSED_BYTES;
  const coding = compressible ? codingFor(acceptEncoding) : "identity";
  const sent = await representationOf(bytes, coding);
  const headers: Record<string, string> = {};
  if (compressible) headers.Vary = "Accept-Encoding";
  if (coding !== "identity") headers["Content-Encoding"] = coding;
  if (validated) headers.ETag = sent.etag;
  return { body: sent.body, headers };
}
