import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * Lingering close, as nginx does it: a request answered before its body was read (a 401, a 413
 * by Content-Length, a 415, a 429, or a body cut off at the size limit) closes its connection, but
 * a socket closed while the client is still sending is reset by the kernel, and the reset can
 * destroy the answer before the client reads it (Node's fetch then sees EPIPE and no status).
 * So once the answer is sent the server half-closes (FIN: "no more from me"), keeps reading and
 * discarding what the client still sends, and closes when the body has ended, or after
 * LINGER_MAX_BYTES or LINGER_MAX_MS, whichever comes first (decision 0030).
 */

/** What is drained after an early answer: more than the usual upload, bounded so that a client cannot hold a socket forever. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;

export interface LingerLimits {
  maxBytes: number;
  maxMs: number;
}

type LingeringSocket = Socket & { destroySoon?: () => void; lingers?: boolean };

/**
 * Called when `req` is answered before its body was read. Node closes a `Connection: close`
 * connection with `socket.destroySoon()` once the answer is written: that call, for this socket,
 * becomes the lingering close.
 */
export function lingerAfterAnswer(req: IncomingMessage, limits: LingerLimits = { maxBytes: LINGER_MAX_BYTES, maxMs: LINGER_MAX_MS }): void {
  const socket = req.socket as LingeringSocket;
  if (socket.lingers) return;
  socket.lingers = true;
  const closeNow = socket.destroySoon?.bind(socket);
  socket.destroySoon = () => {
    // The body arrived whole meanwhile: nothing is left unread, Node's own close is clean.
    if (req.complete || socket.destroyed || !closeNow) return closeNow ? closeNow() : socket.end();
    drain(req, socket, limits);
  };
}

function drain(req: IncomingMessage, socket: Socket, limits: LingerLimits): void {
  socket.end();
  let drained = 0;
  const destroy = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(destroy, limits.maxMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // The server's parser still reads the request: its body arrives, and is dropped, as `data`.
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.maxBytes) destroy();
  });
  // Everything the client sent has been read: closing now resets nothing. The answer and the FIN
  // are written first (destroying before would cut them off).
  req.once("end", () => {
    if (socket.writableFinished) destroy();
    else socket.once("finish", destroy);
  });
  req.resume();
}
