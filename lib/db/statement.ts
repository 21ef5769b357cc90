/**
 * A hot statement, prepared once per connection under its name (issue 31, docs/decisions/0037):
 * on PostgreSQL, `pg` sends Parse and Describe the first time a connection runs it and only Bind
 * and Execute after, instead of Parse/Bind/Describe/Execute and the row description on every call.
 * PGlite (0.5) parses every query as an unnamed statement and takes no name: there it is its text.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
  /**
   * It writes though its text reads like a plain SELECT (it calls a function that writes): the
   * embedded database counts it as a write (lib/db/write-generation.ts), so no cached read survives it.
   */
  readonly writes: boolean;
}

/** What `Queryable.query` takes: SQL text, or a named statement. */
export type Statement = string | NamedStatement;

const defined = new Map<string, string>();

/**
 * Names a statement. A name is per connection in PostgreSQL and `pg` refuses one name for two
 * texts, so a second text under a name is a programming error, refused when the module loads.
 */
export function named(name: string, text: string, options: { writes?: boolean } = {}): NamedStatement {
  const before = defined.get(name);
  if (before !== undefined && before !== text) throw new Error(`statement name ${name} is already used for another text`);
  defined.set(name, text);
  return Object.freeze({ name, text, writes: options.writes ?? false });
}

export function textOf(statement: Statement): string {
  return typeof statement === "string" ? statement : statement.text;
}
