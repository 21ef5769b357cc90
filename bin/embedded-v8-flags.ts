/**
 * V8 heap settings of the embedded start (`npm start`, `node dist/bin/start.js`). A process'
 * heap limits are fixed when V8 starts (v8.setFlagsFromString cannot change them), so the entry
 * replaces itself, same pid, same stdio, with the flags on its command line (process.execve).
 *
 * Why these: the live set is ~50 MB, and under load garbage grows the heap ~90 MB above it. V8's
 * default young generation (16 MB semi-spaces) is ~48 MB of RSS once touched; 4 MB semi-spaces and
 * an old space capped at about twice the live set keep the heap near it, and the process under
 * 300 MB beside PGlite's 128 MB of WebAssembly memory. Measured in
 * docs/operations/configuration.md#embedded-memory (a larger young generation measured worse).
 *
 * Distributed processes (DATABASE_URL set) keep V8's defaults: their heap is no PGlite's neighbour.
 * The same restart sets glibc's malloc trim threshold (EMBEDDED_MALLOC_ENV below).
 */
export const DEFAULT_EMBEDDED_V8_FLAGS = "--max-old-space-size=96 --max-semi-space-size=4";

const HEAP_FLAG = /^--(max-old-space-size|max-semi-space-size|max-heap-size|optimize-for-size)(=|$)/;

/** The flags to start with, or none: not embedded, turned off, or the operator chose heap flags. */
export function embeddedV8Flags(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  if (env.DATABASE_URL) return [];
  const flags = (env.EMBEDDED_V8_FLAGS ?? DEFAULT_EMBEDDED_V8_FLAGS).split(/\s+/).filter(Boolean);
  if (flags.every(flag => execArgv.includes(flag))) return [];
  const chosen = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].some(arg => HEAP_FLAG.test(arg));
  return chosen ? [] : flags;
}

/**
 * glibc's malloc settings of the embedded process, unless the operator set them. By default glibc
 * raises its trim and mmap thresholds as large blocks are freed (up to 32 MB), after which freed
 * memory stays in the process; under PGlite's and Node's churn of large buffers that held ~75 MB
 * of RSS. A fixed trim threshold (which also fixes the mmap threshold) gives it back: measured
 * 266–278 → 190 MB at rest and 298–305 → 205 MB after 30 s of creates, creates/s unchanged
 * (docs/operations/configuration.md#embedded-memory). Other C libraries ignore the variable.
 */
export const EMBEDDED_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_TRIM_THRESHOLD_: "131072" };

/** The malloc settings to add to the environment: none when distributed or already set. */
export function embeddedMallocEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.DATABASE_URL) return {};
  return Object.fromEntries(Object.entries(EMBEDDED_MALLOC_ENV).filter(([name]) => env[name] === undefined));
}

/**
 * Replaces this process with itself started with the embedded flags and malloc settings, when
 * they apply (never returns then). The new process has both, so it keeps going.
 */
export function restartWithEmbeddedV8Flags(): void {
  const flags = embeddedV8Flags(process.env, process.execArgv);
  const malloc = embeddedMallocEnv(process.env);
  // No execve (Windows, or a Node without it): the defaults, which only cost memory.
  if ((flags.length === 0 && Object.keys(malloc).length === 0) || typeof process.execve !== "function") return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...malloc
  });
}
