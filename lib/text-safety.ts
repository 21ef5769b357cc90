import type { FieldProblem } from "./errors";

/**
 * The one rule every string of every request obeys, whatever field it lands in: no NUL, no other
 * C0 control character except tab, line feed and carriage return (free text may have lines), and
 * no unpaired UTF-16 surrogate (it is not text; PostgreSQL refuses it, and so would a merchant's
 * own database when the string comes back in a webhook). Object keys obey it too, and the keys
 * that reach JavaScript's object machinery (`__proto__`, `constructor`, `prototype`) are refused:
 * a body must not be able to give the params object a prototype whose fields validation would see.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Deeper than any request we define; bounds the walk (and the work a hostile body can cause). */
export const MAX_DEPTH = 32;

function textProblem(text: string): string | null {
  if (CONTROL.test(text)) return "must not contain control characters (only tab and line breaks are allowed)";
  if (!text.isWellFormed()) return "must be valid Unicode text (it contains an unpaired surrogate)";
  return null;
}

function joinPath(parent: string, key: string | number): string {
  if (parent === "") return String(key);
  return `${parent}.${key}`;
}

/** Every problem found, each naming its field the way validation errors do (`items.3.name`). */
export function unsafeTextProblems(value: unknown, field = ""): FieldProblem[] {
  const problems: FieldProblem[] = [];
  walk(value, field, 0, problems);
  return problems;
}

function walk(value: unknown, field: string, depth: number, problems: FieldProblem[]): void {
  if (typeof value === "string") {
    const problem = textProblem(value);
    if (problem) problems.push({ field: field || "body", message: problem });
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (depth >= MAX_DEPTH) {
    problems.push({ field: field || "body", message: `must not be nested more than ${MAX_DEPTH} levels deep` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, joinPath(field, index), depth + 1, problems));
    return;
  }
  for (const key of Object.keys(value)) {
    const keyProblem = PROTOTYPE_KEYS.has(key) ? "is not an allowed field name" : textProblem(key);
    if (keyProblem) {
      problems.push({ field: joinPath(field, JSON.stringify(key).slice(1, -1)), message: keyProblem });
      continue;
    }
    walk((value as Record<string, unknown>)[key], joinPath(field, key), depth + 1, problems);
  }
}
