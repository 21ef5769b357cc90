import { inProcessSystem } from "../helpers/in-process-system";
import { testEngines } from "../helpers/engines";
import { networkContract } from "../e2e/network-contract";

/**
 * Issue 44 on each database engine, the whole system in this process: the network contract that
 * embedded, distributed and cluster runs share (test/e2e/every-contract.ts), quicker to run alone.
 */
describe.each(testEngines("network"))("the first and middle mile on %s", (_name, engine) => {
  const sut = inProcessSystem(async () => {
    const database = await engine();
    // The pickup webhooks' receiver is on this machine (test/e2e/pickup-events-contract.ts), as in the e2e suites.
    return { ...database, env: { ...database.env, WEBHOOK_ALLOW_PRIVATE: "true" }, url: database.url ?? undefined };
  });
  networkContract(sut.system);
});
