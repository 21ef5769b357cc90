import { Errors } from "moleculer";
import { asUnavailable, isConnectionLoss, wasConnectionLost } from "../../lib/db/connection-loss";
import { AppError } from "../../lib/errors";
import { toErrorResponse } from "../../lib/http-errors";

/** pg's errors carry the server's SQLSTATE in `code`; node's socket errors their errno name. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe("a lost database connection is a 503 with Retry-After (issue 46)", () => {
  test.each([
    ["pg_terminate_backend", pgError("terminating connection due to administrator command", "57P01")],
    ["a server in recovery", pgError("the database system is starting up", "57P03")],
    ["a write on a demoted primary", pgError("cannot execute INSERT in a read-only transaction", "25006")],
    ["connection exception class", pgError("connection failure", "08006")],
    ["socket closed under the query", pgError("Connection terminated unexpectedly")],
    ["refused connect", pgError("connect ECONNREFUSED 127.0.0.1:5000", "ECONNREFUSED")]
  ])("%s", (_what, err) => {
    expect(isConnectionLoss(err)).toBe(true);
    const turned = asUnavailable(err);
    expect(wasConnectionLost(turned)).toBe(true);
    const response = toErrorResponse(turned, "req-1");
    expect(response.body).toEqual({
      code: "UNAVAILABLE",
      status: 503,
      message: "The database is temporarily unavailable, please retry",
      requestId: "req-1"
    });
    expect(Number(response.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(response.unexpected).toBe(false);
  });

  test.each([
    ["a unique violation", pgError("duplicate key value", "23505")],
    ["a serialization failure", pgError("could not serialize access", "40001")],
    ["a syntax error", pgError("syntax error at or near", "42601")],
    ["a business refusal", new AppError("INSUFFICIENT_BALANCE", "no money")]
  ])("%s goes through unchanged", (_what, err) => {
    expect(isConnectionLoss(err)).toBe(false);
    expect(asUnavailable(err)).toBe(err);
  });

  test("every 503 says when to retry, even one that named no delay (a service between nodes)", () => {
    const response = toErrorResponse(new Errors.ServiceNotAvailableError({ action: "parcels.create" }));
    expect(response.body.status).toBe(503);
    expect(response.headers["Retry-After"]).toBe("1");
    expect(toErrorResponse(new AppError("UNAVAILABLE", "busy", { retryAfterSeconds: 3 })).headers["Retry-After"]).toBe("3");
  });
});
