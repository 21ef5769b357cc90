/**
 * The events API's paging cursor: opaque to merchants (they pass back what they were given), so
 * that what it holds can change without breaking them. Today it is the event's position in the
 * feed, which only grows, under a version tag.
 */

const VERSION = "e1";
const POSITION = /^[1-9][0-9]{0,17}$/; // below 2^63: a bigint column takes it
/** base64url of "e1:<digits>": a little over 30 characters at most. */
export const EVENT_CURSOR_PATTERN = "^[A-Za-z0-9_-]{1,64}$";
export const EXAMPLE_EVENT_CURSOR = encodeEventCursor("4127");

/** The cursor that resumes after the event at `position` (a positive integer as text: bigint columns arrive as text). */
export function encodeEventCursor(position: string): string {
  if (!POSITION.test(position)) throw new RangeError(`not an event position: ${JSON.stringify(position)}`);
  return Buffer.from(`${VERSION}:${position}`, "utf8").toString("base64url");
}

/** The position a cursor resumes after, as text; null when the cursor is not one we issued. */
export function decodeEventCursor(cursor: string): string | null {
  if (!new RegExp(EVENT_CURSOR_PATTERN).test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const [version, position, ...rest] = text.split(":");
  if (version !== VERSION || rest.length > 0 || position === undefined || !POSITION.test(position)) return null;
  // Only the canonical spelling: a cursor is never two strings.
  return encodeEventCursor(position) === cursor ? position : null;
}
