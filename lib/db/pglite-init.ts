import { execFile } from "node:child_process";

// Runs in a child process, so that its memory goes back to the system when it exits.
const INIT_SOURCE = `
const [module, dataDir, options] = process.argv.slice(1);
require(module).PGlite.create(dataDir, JSON.parse(options)).then(db => db.close()).catch(err => {
  console.error(err && err.stack || err);
  process.exit(1);
});
`;

/**
 * Creates the PostgreSQL cluster of `dataDir` (initdb) in a short-lived child process. Creating it
 * grows PGlite's WebAssembly memory to about 600 MB, which a process never gives back; opening a
 * cluster that exists takes under 200 MB. So the embedded process only ever opens.
 */
export function initPgliteCluster(dataDir: string, options: object): Promise<void> {
  const args = ["-e", INIT_SOURCE, require.resolve("@electric-sql/pglite"), dataDir, JSON.stringify(options)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 120_000 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`creating the embedded database in ${dataDir} failed: ${stderr || err.message}`));
      else resolve();
    });
  });
}
