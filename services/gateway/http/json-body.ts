import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { AppError } from "../../../lib/errors";
import { unsafeTextProblems } from "../../../lib/text-safety";

/**
 * Reads a JSON request body with every failure a 4xx in the normalised error shape: too large
 * (413, before or after decompression), a type or charset other than JSON in UTF-8 (415), an
 * unknown Content-Encoding (415), a body that does not decode as it claims (400), bytes that are
 * not UTF-8, text that is not JSON, or JSON that is not an object (400), and the field names and
 * text that no field may hold (400, see lib/text-safety).
 */

const DECODERS: Record<string, (input: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress)
};

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

function tooLarge(limit: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body must be at most ${limit} bytes`);
}

function unsupported(message: string): AppError {
  return new AppError("UNSUPPORTED_MEDIA_TYPE", message);
}

function invalid(message: string, field = "body"): AppError {
  return new AppError("VALIDATION_FAILED", message, { details: [{ field, message }] });
}

/** True when the request announces a body (a length above zero, or a chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

function checkContentType(req: IncomingMessage): void {
  const header = req.headers["content-type"];
  if (!header) throw unsupported("Send the body as JSON, with Content-Type: application/json");
  const [type, ...parameters] = header.split(";").map(part => part.trim());
  if (!JSON_TYPE.test(type)) throw unsupported(`Content-Type ${type} is not supported; send application/json`);
  for (const parameter of parameters) {
    const [name, value = ""] = parameter.split("=").map(part => part.trim().toLowerCase());
    if (name === "charset" && value.replace(/"/g, "") !== "utf-8") {
      throw unsupported("Only the UTF-8 charset is supported");
    }
  }
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (err: AppError) => {
      req.removeAllListeners("data");
      // Stop reading: what is left of an oversized body is not worth the bandwidth.
      req.resume();
      reject(err);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return fail(tooLarge(limit));
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks, size)));
    req.once("error", () => reject(invalid("The request body could not be read")));
    req.once("aborted", () => reject(invalid("The request body was not sent completely")));
  });
}

async function decode(raw: Buffer, encodingHeader: string | undefined, limit: number): Promise<Buffer> {
  const encoding = (encodingHeader ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return raw;
  const decoder = DECODERS[encoding];
  if (!decoder) throw unsupported(`Content-Encoding ${encoding} is not supported (use gzip, deflate, br or none)`);
  try {
    return await decoder(raw, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) throw tooLarge(limit);
    throw invalid(`The request body is not valid ${encoding} data`);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Called once the headers have passed, just before the body is read (the gateway sends `100 Continue` then). */
export type BeforeRead = () => void;

/** The body as text (its size checked as sent and decoded, its type by `checkType`); undefined when there is none. */
async function readBodyText(
  req: IncomingMessage,
  limit: number,
  checkType: (req: IncomingMessage) => void,
  beforeRead: BeforeRead
): Promise<string | undefined> {
  if (!hasBody(req)) return undefined;
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  checkType(req);
  beforeRead();
  const bytes = await decode(await readRaw(req, limit), req.headers["content-encoding"], limit);
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid("The request body is not valid UTF-8");
  }
}

/**
 * The parsed body, or undefined when the request has none. `limit` bounds the body both as sent
 * and once decompressed (a few kilobytes of gzip must not become gigabytes).
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  beforeRead: BeforeRead = () => undefined
): Promise<Record<string, unknown> | undefined> {
  const text = await readBodyText(req, limit, checkContentType, beforeRead);
  if (text === undefined || text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // SyntaxError, or RangeError for nesting deep enough to exhaust the parser's stack.
    throw invalid("The request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid("The request body must be a JSON object");
  }
  const problems = unsafeTextProblems(value);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
  return value as Record<string, unknown>;
}

const FORM_TYPE = "application/x-www-form-urlencoded";

function checkFormType(req: IncomingMessage): void {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== FORM_TYPE) throw unsupported(`Content-Type ${type || "(none)"} is not supported here; send ${FORM_TYPE}`);
}

/**
 * The body of an HTML form (the tracking pages work without JavaScript): the same limits and text
 * safety as a JSON body; each field's first value, as text. Undefined when the request has none.
 */
export async function readFormBody(
  req: IncomingMessage,
  limit: number,
  beforeRead: BeforeRead = () => undefined
): Promise<Record<string, string> | undefined> {
  const text = await readBodyText(req, limit, checkFormType, beforeRead);
  if (text === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!(name in fields)) fields[name] = value;
  const problems = unsafeTextProblems(fields);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
  return fields;
}
