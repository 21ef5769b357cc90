import { performance } from "node:perf_hooks";
import { PGlite, Transaction } from "@electric-sql/pglite";
import { ServiceBroker } from "moleculer";

/**
 * Preloaded into the profiled embedded process only (`node --require …/census.js`), never in a
 * measured run: counts every PGlite statement (by SQL text) and every Moleculer action call, so
 * that a CPU share ("40 % in PGlite") can be tied to the statements and calls behind it. The
 * profiler reads it through the inspector: `globalThis.__benchCensus`.
 */
export interface CensusSnapshot {
  statements: Record<string, { count: number; ms: number }>;
  calls: Record<string, number>;
  /** Explicit transactions; every statement outside one commits on its own. */
  transactions: number;
  statementsInTransactions: number;
}

const statements = new Map<string, { count: number; ms: number }>();
const calls = new Map<string, number>();
let transactions = 0;
let statementsInTransactions = 0;

function normalise(sql: string): string {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > 110 ? `${flat.slice(0, 107)}…` : flat;
}

function counted<T>(sql: unknown, run: () => Promise<T>): Promise<T> {
  const key = normalise(String(sql));
  const started = performance.now();
  const done = () => {
    const entry = statements.get(key) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += performance.now() - started;
    statements.set(key, entry);
  };
  return run().finally(done);
}

type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;

function wrapMethod(target: object, name: string, wrap: (original: Method) => Method): void {
  const original = Reflect.get(target, name) as Method;
  Object.defineProperty(target, name, { value: wrap(original), configurable: true, writable: true });
}

const countSql = (original: Method): Method =>
  function (this: unknown, ...args: unknown[]) {
    return counted(args[0], () => Reflect.apply(original, this, args) as Promise<unknown>);
  };

const countSqlInTransaction = (original: Method): Method =>
  function (this: unknown, ...args: unknown[]) {
    statementsInTransactions++;
    return counted(args[0], () => Reflect.apply(original, this, args) as Promise<unknown>);
  };

wrapMethod(PGlite.prototype, "query", countSql);
wrapMethod(PGlite.prototype, "exec", countSql);
// Statements inside a transaction go through the transaction object, not PGlite#query.
wrapMethod(
  PGlite.prototype,
  "transaction",
  original =>
    function (this: unknown, ...args: unknown[]) {
      const work = args[0] as (tx: Transaction) => Promise<unknown>;
      transactions++;
      return Reflect.apply(original, this, [
        (tx: Transaction) => {
          wrapMethod(tx, "query", countSqlInTransaction);
          wrapMethod(tx, "exec", countSqlInTransaction);
          return work(tx);
        }
      ]) as Promise<unknown>;
    }
);

/** broker.call takes an action name, or (from moleculer-web) the endpoint it already chose. */
function actionName(target: unknown): string {
  if (typeof target === "string") return target;
  const endpoint = target as { action?: { name?: string }; name?: string } | null;
  return `${endpoint?.action?.name ?? endpoint?.name ?? "?"} (from the gateway)`;
}

wrapMethod(
  ServiceBroker.prototype,
  "call",
  original =>
    function (this: unknown, ...args: unknown[]) {
      const action = actionName(args[0]);
      calls.set(action, (calls.get(action) ?? 0) + 1);
      return Reflect.apply(original, this, args) as Promise<unknown>;
    }
);

Object.defineProperty(globalThis, "__benchCensus", {
  value: {
    reset() {
      statements.clear();
      calls.clear();
      transactions = 0;
      statementsInTransactions = 0;
    },
    snapshot(): CensusSnapshot {
      return { statements: Object.fromEntries(statements), calls: Object.fromEntries(calls), transactions, statementsInTransactions };
    }
  }
});
