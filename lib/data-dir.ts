import fs from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the embedded database and generated secrets: readable by its owner only
 * (folders 0700, files 0600). New files get that from the process umask (set at start in
 * embedded mode); this walk fixes what was written before it, including the files PGlite copies
 * from its bundled template with their own modes (0666), and folders an older version created.
 */
export function restrictToOwner(target: string): void {
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    fs.chmodSync(target, 0o700);
    for (const entry of fs.readdirSync(target)) restrictToOwner(path.join(target, entry));
  } else if (stat.isFile()) {
    fs.chmodSync(target, 0o600);
  }
}

/** Creates DATA_DIR for its owner alone, and tightens one that exists. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

const guarded = new Set<string>();

/**
 * PGlite's file layer applies the modes Postgres asks for with an explicit chmod (0644 for its
 * relcache init files, written while running), which no umask masks. For paths under `dir`, this
 * process's chmod keeps only the owner's bits, so files written later stay private too.
 */
export function keepModesPrivate(dir: string): void {
  const root = path.resolve(dir) + path.sep;
  if (guarded.has(root)) return;
  guarded.add(root);
  const chmodSync = fs.chmodSync;
  fs.chmodSync = function privateChmodSync(target: fs.PathLike, mode: fs.Mode): void {
    const inside = typeof target === "string" && [...guarded].some(r => path.resolve(target).startsWith(r));
    const masked = inside ? (typeof mode === "string" ? parseInt(mode, 8) : mode) & ~0o077 : mode;
    chmodSync(target, masked);
  };
}
