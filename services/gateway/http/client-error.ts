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

export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or a half-sent response: nobody is left to read an answer.
  if (
    err.code === "ECONNRESET" ||
    !socket.writable ||
    (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
  ) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(err.code));
}
