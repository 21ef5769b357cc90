/**
 * What moleculer-web logs per request on the gateway: one access line ("<= 200 GET /… [+1 ms]")
 * at info, the rest at debug, no params or answers. At LOG_LEVEL=warn (production) nothing per
 * request. The bench's bare moleculer-web baseline uses the same settings, so that it pays for
 * exactly the logging the gateway pays for.
 */
export const ACCESS_LOG_SETTINGS = Object.freeze({
  log4XXResponses: false,
  // One access line per request, not three: at thousands of requests a second, logging was a
  // tenth of the gateway's time.
  logRequest: "debug",
  // The route table is for whoever debugs routing: at info it buried the start-up banner.
  logRouteRegistration: "debug",
  logResponse: "info",
  logRequestParams: null,
  logResponseData: null
} as const);

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

/**
 * Whether the access line would be written at the configured level. When it would not (warn, in
 * production), the gateway's routes skip moleculer-web's per-request logging altogether: it
 * formats a coloured line and reads the clock for every request before the logger drops it.
 */
export function accessLogWritten(logLevel: (typeof LEVELS)[number]): boolean {
  return LEVELS.indexOf(logLevel) >= LEVELS.indexOf(ACCESS_LOG_SETTINGS.logResponse);
}
