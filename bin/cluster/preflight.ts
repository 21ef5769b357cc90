import net from "node:net";
import { Client } from "pg";

export class PreflightError extends Error {}

/** A TCP connection to the host and port of `url`, so that a missing server is named at once. */
export function assertReachable(label: string, variable: string, url: string, defaultPort: number, timeoutMs = 3000): Promise<void> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const port = Number(parsed.port || defaultPort);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const fail = (why: string) => {
      socket.destroy();
      reject(new PreflightError(`${label} is not reachable at ${host}:${port} (${why}): start it, or set ${variable}`));
    };
    socket.setTimeout(timeoutMs, () => fail("no answer"));
    socket.once("error", err => fail((err as NodeJS.ErrnoException).code ?? err.message));
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
  });
}

const INVALID_CATALOG_NAME = "3D000";
const DUPLICATE_DATABASE = "42P04";

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Creates the database of `databaseUrl` when the server says it does not exist, through the
 * server's `postgres` database; a database that exists needs no more rights than connecting.
 */
export async function ensureDatabase(databaseUrl: string): Promise<"exists" | "created"> {
  const target = new Client({ connectionString: databaseUrl });
  try {
    await target.connect();
    return "exists";
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_CATALOG_NAME) {
      throw new PreflightError(`PostgreSQL refused DATABASE_URL (${(err as Error).message})`);
    }
  } finally {
    await target.end().catch(() => undefined);
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  const admin = new Client({ connectionString: url.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    return "created";
  } catch (err) {
    // Another runner created it at the same moment.
    if ((err as { code?: string }).code === DUPLICATE_DATABASE) return "exists";
    throw new PreflightError(`could not create database ${name}: ${(err as Error).message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
