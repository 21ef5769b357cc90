/**
 * What test/unit/migration-locks.test.ts refuses in a migration (issue 48): a statement that takes a
 * lock a table of ten million rows cannot afford while it rewrites or scans it, the rules of squawk
 * (https://squawkhq.com/docs/rules) that apply to this project. A statement preceded by a comment
 * line `-- lock-ok: <reason>` is let through: the reason argues why (a small table, a new one).
 */

export interface Statement {
  sql: string;
  /** The comment lines right before it. */
  comments: string[];
  line: number;
}

/** Statements with their leading comments; strings, quoted names and $tag$ bodies kept whole. */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  let sql = "";
  let comments: string[] = [];
  let line = 1;
  let start = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") line++;
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      if (sql.trim() === "") comments.push(text.slice(i, stop));
      i = stop;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2) + 2;
      line += text.slice(i, end).split("\n").length - 1;
      i = end;
      continue;
    }
    const quoted = c === "'" || c === '"' ? text.indexOf(c, i + 1) : -1;
    const dollar = c === "$" ? /^\$[A-Za-z_]*\$/.exec(text.slice(i)) : null;
    if (quoted >= 0 || dollar) {
      const end = dollar ? text.indexOf(dollar[0], i + dollar[0].length) + dollar[0].length : quoted + 1;
      const piece = text.slice(i, end);
      line += piece.split("\n").length - 1;
      sql += piece;
      i = end;
      continue;
    }
    if (c === ";") {
      if (sql.trim()) out.push({ sql: sql.trim().replace(/\s+/g, " "), comments, line: start });
      sql = "";
      comments = [];
      i++;
      continue;
    }
    if (sql.trim() === "" && !/\s/.test(c)) start = line;
    sql += c;
    i++;
  }
  if (sql.trim()) out.push({ sql: sql.trim().replace(/\s+/g, " "), comments, line: start });
  return out;
}

/** The tables a file creates: statements on them lock nobody (the table is empty and new). */
function createdTables(statements: Statement[]): Set<string> {
  const names = new Set<string>();
  for (const { sql } of statements) {
    const m = /^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?([\w.]+)/i.exec(sql);
    if (m) names.add(m[1].toLowerCase());
  }
  return names;
}

const VOLATILE_DEFAULT = /\bDEFAULT\s+(?:gen_random_uuid|uuid_generate_\w+|random|clock_timestamp|timeofday|nextval)\s*\(/i;

/** Why `sql` locks an existing table for the length of a scan or a rewrite, or null. */
export function lockProblem(sql: string, inTransaction: boolean, created: Set<string>): string | null {
  const table = (
    /^(?:ALTER TABLE (?:ONLY )?(?:IF EXISTS )?|CREATE (?:UNIQUE )?INDEX (?:CONCURRENTLY )?(?:IF NOT EXISTS )?\w+ ON (?:ONLY )?)([\w.]+)/i.exec(
      sql
    )?.[1] ?? ""
  ).toLowerCase();
  const onNewTable = table !== "" && created.has(table);
  if (/^CREATE (UNIQUE )?INDEX CONCURRENTLY/i.test(sql) || /^DROP INDEX CONCURRENTLY/i.test(sql) || /^REINDEX .*CONCURRENTLY/i.test(sql)) {
    if (inTransaction) return "CONCURRENTLY cannot run inside a transaction: start the file with `-- migrate: no-transaction`";
    if (!/\bIF (NOT )?EXISTS\b/i.test(sql)) return "a no-transaction statement must be idempotent (IF [NOT] EXISTS): it may run twice";
    return null;
  }
  if (!inTransaction) return "a no-transaction file holds only CREATE/DROP INDEX CONCURRENTLY IF [NOT] EXISTS";
  if (/^CREATE (UNIQUE )?INDEX/i.test(sql) && !onNewTable) return "CREATE INDEX blocks writes for the whole build: use CONCURRENTLY";
  if (/^DROP INDEX/i.test(sql)) return "DROP INDEX takes an ACCESS EXCLUSIVE lock on its table: use CONCURRENTLY";
  if (/^(VACUUM FULL|CLUSTER|REINDEX|LOCK TABLE)\b/i.test(sql)) return "rewrites or locks a whole table";
  if (!/^ALTER TABLE/i.test(sql) || onNewTable) return null;
  if (/\bALTER COLUMN \S+ (SET DATA )?TYPE\b/i.test(sql)) return "changing a column's type rewrites the table";
  if (/\bSET NOT NULL\b/i.test(sql))
    return "SET NOT NULL scans the table under ACCESS EXCLUSIVE: add a CHECK (…) NOT VALID, validate it, then set";
  if (/\bADD (CONSTRAINT \w+ )?(FOREIGN KEY|CHECK)\b/i.test(sql) && !/\bNOT VALID\b/i.test(sql))
    return "a new FOREIGN KEY or CHECK scans the table: add it NOT VALID, then VALIDATE CONSTRAINT in a later statement";
  if (/\bADD (CONSTRAINT \w+ )?(UNIQUE|PRIMARY KEY)\b/i.test(sql) && !/\bUSING INDEX\b/i.test(sql))
    return "a UNIQUE or PRIMARY KEY constraint builds its index under lock: build it CONCURRENTLY, then ADD … USING INDEX";
  for (const column of sql.split(/\bADD COLUMN\b/i).slice(1)) {
    if (VOLATILE_DEFAULT.test(column)) return "a column with a volatile default rewrites the table";
    if (/^\s*(IF NOT EXISTS )?\w+ (small|big)?serial\b/i.test(column)) return "a serial column rewrites the table";
    if (/\bGENERATED ALWAYS AS\b.*\bSTORED\b/i.test(column)) return "a stored generated column rewrites the table";
    if (/\bNOT NULL\b/i.test(column) && !/\bDEFAULT\b/i.test(column))
      return "a NOT NULL column without a default fails on a table with rows";
    if (/\b(CHECK|REFERENCES)\b/i.test(column))
      return "a column's CHECK or REFERENCES is validated over the whole table: add it NOT VALID apart";
  }
  if (/\bRENAME\b/i.test(sql)) return "a renamed table or column breaks the pods still running the old code";
  return null;
}

export interface Finding {
  line: number;
  problem: string;
  sql: string;
}

/** Every refused statement of a migration file's text, with its line. */
export function lockFindings(text: string): Finding[] {
  const statements = splitStatements(text);
  const inTransaction = !text.startsWith("-- migrate: no-transaction");
  const created = createdTables(statements);
  const findings: Finding[] = [];
  for (const statement of statements) {
    const problem = lockProblem(statement.sql, inTransaction, created);
    const excused = statement.comments.some(c => /^--\s*lock-ok:\s*\S/.test(c));
    if (problem && !excused) findings.push({ line: statement.line, problem, sql: statement.sql.slice(0, 120) });
  }
  return findings;
}
