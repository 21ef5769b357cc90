import http from "node:http";
import { scriptInput } from "../scripts";
import { BaselineBodies, HEALTH_PATH, PARCEL_PATH_PREFIX } from "./bodies";

/** The floor of the machine: node:http answering the captured bodies, no framework. */
const input = scriptInput<BaselineBodies>();

http
  .createServer((req, res) => {
    const url = req.url ?? "";
    const body = url === HEALTH_PATH ? input.health : url.startsWith(PARCEL_PATH_PREFIX) ? input.parcel : null;
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(input.port, "127.0.0.1", () => process.stdout.write("listening\n"));
