import type { Statement } from "./statement";

/** What a service sees of its database: the same interface over PGlite and a PostgreSQL server. */
export interface Queryable {
  /** `sql` is text, or a hot statement named with `named` (lib/db/statement.ts). */
  query<R extends object = Record<string, unknown>>(sql: Statement, params?: unknown[]): Promise<R[]>;
  /** Runs several statements at once (migrations); no parameters. */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Only where this process is the database's one writer (PGlite): a number that moves before and
   * after every statement or transaction that may write. A read made while it was g is still the
   * truth as long as it is g (lib/db/write-generation.ts). Absent on a server other processes write to.
   */
  writeGeneration?: () => number;
}
