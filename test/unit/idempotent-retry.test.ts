import Joi from "joi";
import { Errors, ServiceBroker } from "moleculer";
import { defineAction, IDEMPOTENT_RETRY } from "../../lib/action";
import { AppError } from "../../lib/errors";

/**
 * Issue 46 (decision 0055): a read, or an action declared idempotent, is sent again when the
 * call was lost (a NATS node gone: RequestTimeoutError) and answers as if nothing happened; a
 * write, or one of our own refusals, is never sent again by the broker.
 */
describe("the broker retries idempotent calls only", () => {
  let broker: ServiceBroker;
  const calls = { read: 0, write: 0, refused: 0 };
  const lostOnce = (n: number) => {
    if (n === 1) throw new Errors.RequestTimeoutError({ action: "x", nodeID: "gone" });
  };

  beforeAll(async () => {
    // The project's broker options: retries off unless an action asks.
    broker = new ServiceBroker({ logger: false, retryPolicy: { enabled: false } });
    broker.createService({
      name: "probe",
      actions: {
        read: defineAction({
          rest: "GET /probe",
          schema: Joi.object({}),
          handler() {
            lostOnce(++calls.read);
            return "read";
          }
        }),
        write: defineAction({
          rest: "POST /probe",
          schema: Joi.object({}),
          handler() {
            lostOnce(++calls.write);
            return "written";
          }
        }),
        refused: defineAction({
          retryPolicy: IDEMPOTENT_RETRY,
          handler() {
            calls.refused++;
            throw new AppError("UNAVAILABLE", "database away", { retryAfterSeconds: 2 });
          }
        })
      }
    });
    await broker.start();
  });
  afterAll(() => broker.stop());

  test("a GET's action marks itself idempotent; a POST's does not", () => {
    expect(defineAction({ rest: "GET /x", handler: () => 1 }).retryPolicy).toEqual(IDEMPOTENT_RETRY);
    expect(defineAction({ rest: "POST /x", handler: () => 1 }).retryPolicy).toBeUndefined();
  });

  test("a read whose first call was lost answers on the retry", async () => {
    await expect(broker.call("probe.read")).resolves.toBe("read");
    expect(calls.read).toBe(2);
  });

  test("a write whose call was lost is not sent again: its caller's flow decides", async () => {
    await expect(broker.call("probe.write")).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
    expect(calls.write).toBe(1);
  });

  test("our own 503 (the database away) is not retried by the broker: the client is told Retry-After", async () => {
    await expect(broker.call("probe.refused")).rejects.toMatchObject({ type: "UNAVAILABLE" });
    expect(calls.refused).toBe(1);
  });
});
