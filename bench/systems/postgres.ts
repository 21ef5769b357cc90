import { randomBytes } from "node:crypto";
import { Client } from "pg";

export const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface ThrowAwayDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database of its own on the local server, dropped (even with connections left) after the run. */
export async function createThrowAwayDatabase(prefix: string): Promise<ThrowAwayDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await admin(c => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin(c => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)
  };
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await admin(c => c.query("SELECT 1"));
    return true;
  } catch {
    return false;
  }
}
