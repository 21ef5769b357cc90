/** A caller's `X-Request-Id` is kept when it matches this; otherwise the gateway makes a UUID. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
