import { Errors } from "moleculer";
import { AppError } from "../../lib/errors";
import { toErrorResponse } from "../../lib/http-errors";

describe("error normalisation", () => {
  test("our errors keep their code, status, message and details", () => {
    const res = toErrorResponse(
      new AppError("VALIDATION_FAILED", "bad", { details: [{ field: "weightG", message: "too heavy" }] }),
      "req-1"
    );
    expect(res.body).toEqual({
      code: "VALIDATION_FAILED",
      message: "bad",
      status: 400,
      details: [{ field: "weightG", message: "too heavy" }],
      requestId: "req-1"
    });
    expect(res.unexpected).toBe(false);
  });

  test("an AppError that crossed the transporter (a plain error with type and code) maps the same", () => {
    const remote = Object.assign(new Error("Parcel not found"), { name: "AppError", type: "PARCEL_NOT_FOUND", code: 404 });
    expect(toErrorResponse(remote).body).toEqual({ code: "PARCEL_NOT_FOUND", message: "Parcel not found", status: 404 });
  });

  test("rate limiting sets Retry-After", () => {
    const res = toErrorResponse(new AppError("RATE_LIMITED", "slow down", { retryAfterSeconds: 17 }));
    expect(res.body.status).toBe(429);
    expect(res.headers["Retry-After"]).toBe("17");
  });

  test("an unavailable service is a 503, a body-parser failure a 400, a huge body a 413", () => {
    expect(toErrorResponse(new Errors.ServiceNotAvailableError({ action: "auth.resolveKey" })).body.code).toBe("UNAVAILABLE");
    expect(toErrorResponse(new Errors.RequestTimeoutError({ action: "x" })).body.status).toBe(503);
    expect(toErrorResponse(Object.assign(new Error("x"), { type: "entity.parse.failed", status: 400 })).body.code).toBe(
      "VALIDATION_FAILED"
    );
    expect(toErrorResponse(Object.assign(new Error("x"), { type: "entity.too.large" })).body.status).toBe(413);
  });

  test("a broken %-escape in the URL is the client's error", () => {
    let uriError: unknown;
    try {
      decodeURIComponent("%ZZ");
    } catch (err) {
      uriError = err;
    }
    expect(toErrorResponse(uriError).body).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    const fromRouter = Object.assign(new Error("Bad request"), { name: "BadRequestError", code: 400, type: "BAD_REQUEST" });
    expect(toErrorResponse(fromRouter).body).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });

  test("anything unknown is a 500 INTERNAL without its message or stack", () => {
    const res = toErrorResponse(new TypeError("Cannot read properties of undefined (reading 'secret')"));
    expect(res.body).toEqual({ code: "INTERNAL", message: "Internal error", status: 500 });
    expect(res.unexpected).toBe(true);
  });

  test("a type that only looks like ours but with the wrong status is not trusted", () => {
    const fake = Object.assign(new Error("x"), { type: "PARCEL_NOT_FOUND", code: 500 });
    expect(toErrorResponse(fake).body.code).toBe("INTERNAL");
  });
});
