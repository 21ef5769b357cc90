import { textOf, type Statement } from "./statement";

/**
 * Counts the writes of a database that only this process writes to (the embedded PGlite), so that
 * a cached read can tell whether anything may have changed since it was made. Conservative on
 * purpose: every statement that is not a plain SELECT, every `exec` and every transaction counts as
 * a write, once when it is issued and once when it is over, whatever its outcome — so that neither a
 * write queued before a read nor one that ends after it can leave a stale entry looking current.
 */
export class WriteGeneration {
  private value = 0;

  current(): number {
    return this.value;
  }

  /** Runs `work`, a possible write, counting it before and after. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.value++;
    try {
      return await work();
    } finally {
      this.value++;
    }
  }
}

const READ_ONLY = /^\s*SELECT\s/i;

/** Whether a statement can only read (a SELECT that locks nothing: FOR UPDATE/SHARE run inside transactions, which count). */
export function isPlainRead(sql: string): boolean {
  return READ_ONLY.test(sql) && !/\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i.test(sql);
}

/** Whether a statement may write: every one but a plain read, and a named one that says it writes (a SELECT of a writing function). */
export function mayWrite(statement: Statement): boolean {
  if (typeof statement !== "string" && statement.writes) return true;
  return !isPlainRead(textOf(statement));
}
