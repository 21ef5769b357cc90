import { Database } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { statementsSent } from "../../lib/db/statement-count";
import { openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

const SELECT_ONE = named("test_statement_count_one", "SELECT 1 AS one");

/** How many statements `work` made the process count (the bench's round trips per create). */
async function counted(work: () => Promise<unknown>): Promise<number> {
  const before = statementsSent();
  await work().catch(() => undefined);
  return statementsSent() - before;
}

/** The same counts on both engines: one per query or exec, two more around each transaction. */
function countContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
  });
  afterAll(() => close());

  test("a query, named or not, and an exec are one statement each", async () => {
    expect(await counted(() => db.query("SELECT 1"))).toBe(1);
    expect(await counted(() => db.query(SELECT_ONE))).toBe(1);
    expect(await counted(() => db.exec("SELECT 1; SELECT 2"))).toBe(1);
  });

  test("a transaction counts BEGIN and COMMIT, or BEGIN and ROLLBACK, besides its own statements", async () => {
    const committed = () =>
      db.transaction(async tx => {
        await tx.query("SELECT 1");
        await tx.query(SELECT_ONE);
      });
    expect(await counted(committed)).toBe(4);
    const failed = () =>
      db.transaction(async tx => {
        await tx.query("SELECT 1");
        throw new Error("rolled back");
      });
    expect(await counted(failed)).toBe(3);
  });
}

describe("statements counted on PGlite (embedded)", () => {
  countContract(openThrowAwayPglite);
});

describeWithServers(["postgres"], "statements counted on the PostgreSQL server", () => {
  countContract(openThrowAwayPostgres);
});
