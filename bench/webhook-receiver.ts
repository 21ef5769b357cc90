import http from "node:http";
import { scriptInput } from "./scripts";

/**
 * The merchant's endpoint, in its own process: answers 204 at once and counts arrivals.
 * `GET /_bench/stats` tells the orchestrator how many came and when the last one did;
 * `POST /_bench/reset` starts a new count.
 */
const { port } = scriptInput<{ port: number }>();

let count = 0;
let firstAt = 0;
let lastAt = 0;
let sampleBody = "";
let sampleHeaders: http.IncomingHttpHeaders = {};
/** Arrival time of the last event of each parcel (the bench sends one event per parcel at a time). */
let arrivals: Record<string, number> = {};

function parcelIdOf(raw: string): string | null {
  try {
    const event = JSON.parse(raw) as { data?: { parcel?: { id?: unknown } } };
    return typeof event.data?.parcel?.id === "string" ? event.data.parcel.id : null;
  } catch {
    return null;
  }
}

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", c => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/_bench/stats") {
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ count, firstAt, lastAt, sampleBody, sampleHeaders, arrivals }));
        return;
      }
      if (req.url === "/_bench/reset") {
        count = 0;
        firstAt = 0;
        lastAt = 0;
        arrivals = {};
        res.writeHead(204).end();
        return;
      }
      const now = Date.now();
      count++;
      if (count === 1) firstAt = now;
      lastAt = now;
      const raw = Buffer.concat(chunks).toString("utf8");
      const parcelId = parcelIdOf(raw);
      if (parcelId) arrivals[parcelId] = now;
      if (!sampleBody && req.headers["x-relay-event"]) {
        sampleBody = raw;
        sampleHeaders = req.headers;
      }
      res.writeHead(204).end();
    });
  })
  .listen(port, "127.0.0.1", () => process.stdout.write("listening\n"));
