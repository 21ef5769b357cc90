import fs from "node:fs";

/**
 * Test-only fault points: places where a crash test holds the system still at the moment it wants
 * to crash it, instead of racing a poll against the work (issue 26, docs/development/tests.md).
 * Each is armed by a variable that only test systems set; unset, the point is `null` and the
 * product runs no code of it.
 */

const POLL_MS = 20;

/**
 * Holds a group after its transaction committed, before its callers get their answers, while
 * `file` exists — once `file`'s number (a count, 1 if empty) of items has been committed since it
 * appeared. A crash test creates the file, waits for the line this logs, kills a process in the
 * middle of the groups (debits committed, nobody answered), then removes the file to let go.
 */
export function holdAfterCommit(file: string | null, log: (message: string) => void): ((committedItems: number) => Promise<void>) | null {
  if (!file) return null;
  let committedWhileArmed = 0;
  return async committedItems => {
    if (!fs.existsSync(file)) {
      committedWhileArmed = 0;
      return;
    }
    committedWhileArmed += committedItems;
    const threshold = Number(fs.readFileSync(file, "utf8").trim() || "1");
    if (committedWhileArmed < threshold) return;
    log(`fault point: holding a committed group (${committedWhileArmed} items committed while armed) until ${file} is removed`);
    while (fs.existsSync(file)) await new Promise(resolve => setTimeout(resolve, POLL_MS));
  };
}
