import { inProcessSystem } from "../helpers/in-process-system";
import { testEngines } from "../helpers/engines";
import { cashContract } from "../e2e/cash-contract";

/** Issue 45 B through the gateway on each database engine, the whole system in this process. */
describe.each(testEngines("cash"))("cash on delivery custody on %s", (_name, engine) => {
  const sut = inProcessSystem(async () => {
    const database = await engine();
    return { ...database, url: database.url ?? undefined };
  });
  cashContract(sut.system);
});
