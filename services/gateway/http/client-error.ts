import type { Socket } from "node:net";
import { ERROR_STATUS, ErrorCode } from "../../../lib/errors";

/**
 * Errors Node's HTTP parser answers by itself, before any route runs (a malformed request line,
 * headers over the size limit, a request that took too long to arrive), written in the
 * normalised error shape instead of Node's bare status line. Installed as the server's
 * `clientError` listener.
 */

const BY_NODE_CODE: Record<string, { code: ErrorCode; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: "HEADERS_TOO_LARGE",
    reason: "Request Header Fields Too Large",
    message: "The request headers are too large"
  },
  ERR_HTTP_REQUEST_TIMEOUT: { code: "REQUEST_TIMEOUT", reason: "Request Timeout", message: "The request did not arrive in time" }
};
const MALFORMED = { code: "VALIDATION_FAILED" as const, reason: "Bad Request", message: "The request is not valid HTTP" };

export function clientErrorResponse(nodeCode: string | undefined): string {
  const known = (nodeCode && BY_NODE_CODE[nodeCode]) || MALFORMED;
  const status = ERROR_STATUS[known.code];
  const body = JSON.stringify({ code: known.code, message: known.message, status });
  return (
    `HTTP/1.1 ${status} ${known.reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

type ResponseInFlight = {
  headersSent?: boolean;
  writableFinished?: boolean;
  setHeader(name: string, value: string): void;
  once(event: "finish" | "close", listener: () => void): void;
};

/**
 * The response of a request this connection already sent whole, not yet finished. Bytes after a
 * complete request that do not parse are what a client sends when it puts a body on a request
 * without framing it (Node's HTTP client does so for a DELETE with a body: no Content-Length, no
 * chunked encoding): the request itself deserves its own answer, as curl's framed one gets.
 */
function responseInFlight(socket: Socket): ResponseInFlight | null {
  const message = (socket as Socket & { _httpMessage?: ResponseInFlight | null })._httpMessage;
  return message && !message.writableFinished ? message : null;
}

export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset: nobody is left to read an answer.
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = responseInFlight(socket);
  // A request too slow to arrive is answered now (408), whatever its handler is waiting for.
  if (inFlight && err.code !== "ERR_HTTP_REQUEST_TIMEOUT") {
    // The request is answered; what followed it is not, and the connection closes after the answer
    // (said in the answer, so that a client does not send its next request on it).
    if (!inFlight.headersSent) inFlight.setHeader("Connection", "close");
    const close = () => socket.end();
    inFlight.once("finish", close);
    inFlight.once("close", close);
    return;
  }
  // A half-sent response cannot be followed by another.
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(err.code));
}
