import { ERROR_STATUS, FieldProblem } from "../errors";
import type { ErrorBody } from "../http-errors";
import { REQUEST_ID_PATTERN } from "../request-id";
import { arrayOf, component, objectOf } from "./json-schema";

/**
 * The normalised error body as the documents show it: what the gateway answers on every failed
 * call, and what a batch answers for each item that failed.
 */

const FIELD_PROBLEM = component(
  "FieldProblem",
  objectOf<FieldProblem>(
    {
      field: { type: "string", description: "The request field at fault (dotted path; a header name for headers)." },
      message: { type: "string", description: "What is wrong with it." },
      relayCode: {
        type: "string",
        description: "RELAY_CLOSED only: an open relay point suggested instead, to send as destinationRelayCode.",
        examples: ["DZ-16-ALGER-BAB-EL-OUED"]
      },
      distanceKm: {
        type: "number",
        minimum: 0,
        description: "RELAY_CLOSED only: how far the suggested point is from the closed one, in km."
      }
    },
    { optional: ["relayCode", "distanceKm"] }
  )
);

const KNOWN_CODES = Object.keys(ERROR_STATUS);

/** The normalised error body. Its `code` is open: the known codes are listed, and a later v1 may add some. */
export const API_ERROR = component(
  "ApiError",
  objectOf<ErrorBody>(
    {
      code: {
        type: "string",
        examples: KNOWN_CODES,
        description:
          `Machine-readable error code. Known today: ${KNOWN_CODES.join(", ")}. Each response below lists the codes it can ` +
          "carry; treat a code you do not know by its HTTP status."
      },
      message: { type: "string", minLength: 1, description: "Human-readable explanation (English)." },
      status: { type: "integer", minimum: 400, maximum: 599, description: "The HTTP status, repeated." },
      details: {
        ...arrayOf(FIELD_PROBLEM, "Field-by-field problems, on validation errors; the open relay points suggested, on RELAY_CLOSED."),
        minItems: 1
      },
      requestId: {
        type: "string",
        pattern: REQUEST_ID_PATTERN.source,
        description: "Same value as the X-Request-Id header; quote it to support."
      }
    },
    { description: "The normalised error body of every failed call.", optional: ["details", "requestId"] }
  )
);
