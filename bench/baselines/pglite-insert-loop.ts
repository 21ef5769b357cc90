import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import { answer, readyThenWaitForGo, scriptInput } from "../scripts";
import { LoadStats, statsOfLatencies } from "../stats";

/**
 * PGlite's own floor for a write: one-row INSERT committed in its own transaction, in a loop, on a
 * data directory on disk as the embedded system uses it. PGlite has one connection, so this is
 * serial by nature, whatever the HTTP concurrency of the row it is compared with.
 */
interface PgliteLoopInput {
  seconds: number;
  reps: number;
}

async function main(): Promise<void> {
  const input = scriptInput<PgliteLoopInput>();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pglite-"));
  const db = await PGlite.create(dir);
  try {
    await db.exec(`CREATE TABLE items (id uuid PRIMARY KEY, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    const insertOne = () =>
      db.transaction(async tx => {
        await tx.query("INSERT INTO items (id, payload) VALUES ($1, $2)", [randomUUID(), "a parcel-sized payload of a few dozen bytes"]);
      });
    const loop = async (seconds: number): Promise<LoadStats> => {
      const latencies: number[] = [];
      const start = performance.now();
      while (performance.now() - start < seconds * 1000) {
        const t = performance.now();
        await insertOne();
        latencies.push(performance.now() - t);
      }
      return statsOfLatencies(latencies, (performance.now() - start) / 1000);
    };
    await readyThenWaitForGo();
    await loop(1);
    const reps: LoadStats[] = [];
    for (let i = 0; i < input.reps; i++) reps.push(await loop(input.seconds));
    answer({ reps });
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
