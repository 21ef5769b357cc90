import { createHook } from "node:async_hooks";

/**
 * Keeps one of Node's tick objects (what `process.nextTick` queues) alive for the life of the
 * process, so that every later tick object keeps the same hidden classes (decision 0046).
 *
 * Why: V8 keeps the hidden classes ("maps") of a shape only while some object has them. Tick
 * objects live for one turn, so a full GC in a quiet moment (PGlite's start-up, the memory reducer
 * after a burst) drops theirs, and the next ones are given new maps. `nextTick` builds each with
 * computed keys (`[async_id_symbol]`, …), and V8 compiles such a key's store for one map only:
 * once it has seen a second, every key of every tick object is a runtime call. Measured in the
 * embedded process: ~4 µs of a `GET /health`'s ~65 µs of CPU (streams and sockets queue several
 * ticks per request), and nothing once the shape is kept (docs/development/benchmarks.md).
 *
 * The object is caught the one way Node hands it out: an async hook's `init` sees it as the
 * resource of a `TickObject`. The hook is on for that one call only. Where Node builds tick objects
 * differently, nothing is caught and nothing changes.
 */
let kept: object | null = null;

/** Catches and keeps one tick object, once per process; it is returned for the tests. */
export function keepTickObjectShape(): object | null {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject" && !kept) kept = resource;
    }
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  return kept;
}

function noop(): void {}
