import { AppError, AppErrorData, ERROR_STATUS, ErrorCode, FieldProblem, isErrorCode } from "./errors";

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: FieldProblem[];
  requestId?: string;
}

export interface ErrorResponse {
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error is ours to fix (5xx): worth a log line with its stack. */
  unexpected: boolean;
}

/** The Retry-After of a 503 that named none (a service between nodes, a broker cut off). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

interface LooseError {
  name?: string;
  message?: string;
  code?: unknown;
  type?: unknown;
  data?: AppErrorData | unknown;
  status?: number;
}

/** Errors of moleculer, moleculer-web and body-parser, by name or type, mapped to our codes. */
function classify(err: LooseError): { code: ErrorCode; message: string } | null {
  switch (err.type) {
    case "entity.parse.failed":
      return { code: "VALIDATION_FAILED", message: "The request body is not valid JSON" };
    case "entity.too.large":
      return { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large" };
    case "encoding.unsupported":
    case "charset.unsupported":
      return { code: "UNSUPPORTED_MEDIA_TYPE", message: "Unsupported request body encoding" };
  }
  switch (err.name) {
    // moleculer-web's own 400, raised for a path parameter with a broken %-escape.
    case "BadRequestError":
    case "URIError":
      return { code: "VALIDATION_FAILED", message: "The URL is not validly percent-encoded" };
    case "NotFoundError":
      return { code: "NOT_FOUND", message: "No such route" };
    case "UnAuthorizedError":
      return { code: "UNAUTHENTICATED", message: "Missing or invalid credentials" };
    case "ValidationError":
      return { code: "VALIDATION_FAILED", message: "The request is not valid" };
    case "ServiceNotFoundError":
    case "ServiceNotAvailableError":
    case "ServiceUnavailableError":
    case "RequestTimeoutError":
    case "BrokerDisconnectedError":
    case "QueueIsFullError":
      return { code: "UNAVAILABLE", message: "The service is temporarily unavailable, please retry" };
  }
  return null;
}

export function toErrorResponse(raw: unknown, requestId?: string): ErrorResponse {
  const err = (raw ?? {}) as LooseError;
  let code: ErrorCode = "INTERNAL";
  let message = "Internal error";
  let details: FieldProblem[] | undefined;
  let retryAfterSeconds: number | undefined;
  let allow: string[] | undefined;

  if (raw instanceof AppError || (isErrorCode(err.type) && err.code === ERROR_STATUS[err.type])) {
    code = err.type as ErrorCode;
    message = err.message ?? code;
    const data = (err.data ?? {}) as AppErrorData;
    details = data.details;
    retryAfterSeconds = data.retryAfterSeconds;
    allow = data.allow;
  } else {
    const known = classify(err);
    if (known) ({ code, message } = known);
  }

  // Every 503 says when to try again (issue 46): a node or the database coming back takes seconds.
  if (code === "UNAVAILABLE" && retryAfterSeconds === undefined) retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
  const status = ERROR_STATUS[code];
  const body: ErrorBody = { code, message, status };
  if (details && details.length > 0) body.details = details;
  if (requestId) body.requestId = requestId;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  if (allow !== undefined) headers["Allow"] = allow.join(", ");
  return { body, headers, unexpected: status >= 500 && code !== "UNAVAILABLE" };
}
