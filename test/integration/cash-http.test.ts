import { inProcessSystem } from "../helpers/in-process-system";
import { testEngines } from "../helpers/engines";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { cashContract } from "../e2e/cash-contract";

/** Issue 45 B through the gateway on each database engine, the whole system in this process. */
describe.each(testEngines("cash"))("cash on delivery custody on %s", (name, engine) => {
  const sut = inProcessSystem(async () => {
    const database = await engine();
    return { ...database, url: database.url ?? undefined };
  });
  cashContract(sut.system);

  // Read from outside the system (the money invariant, with the cash's since issue 45): an in-memory PGlite has no outside.
  if (name === "PostgreSQL")
    test("the money invariant, the cash's included, holds", async () => {
      expect((await checkMoneyInvariant(sut.databaseUrl()!)).violations).toEqual([]);
    });
});
