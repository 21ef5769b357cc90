import { decodeEventCursor, encodeEventCursor, EVENT_CURSOR_PATTERN } from "../../../services/webhooks/event-cursor";
import { isDateTime } from "../../../lib/schemas";

describe("the events API cursor", () => {
  test("round trip, opaque, and only the canonical spelling of a cursor we issued", () => {
    const cursor = encodeEventCursor("4127");
    expect(cursor).toMatch(new RegExp(EVENT_CURSOR_PATTERN));
    expect(cursor).not.toContain("4127");
    expect(decodeEventCursor(cursor)).toBe("4127");
    expect(decodeEventCursor(encodeEventCursor("999999999999999999"))).toBe("999999999999999999");
    for (const forged of [
      "",
      "4127",
      "ZTE6",
      Buffer.from("e2:5").toString("base64url"),
      Buffer.from("e1:05").toString("base64url"),
      Buffer.from("e1:5:6").toString("base64url"),
      Buffer.from("e1:-5").toString("base64url"),
      `${cursor}=`,
      `${cursor}A`
    ]) {
      expect({ forged, position: decodeEventCursor(forged) }).toEqual({ forged, position: null });
    }
  });

  test("positions a bigint column cannot hold are neither issued nor read", () => {
    expect(() => encodeEventCursor("9223372036854775808")).toThrow(RangeError);
    expect(() => encodeEventCursor("0")).toThrow(RangeError);
    expect(decodeEventCursor(Buffer.from("e1:9223372036854775808").toString("base64url"))).toBeNull();
  });
});

describe("date-times in requests", () => {
  test.each([
    ["2026-01-17T14:02:11Z", true],
    ["2026-01-17t14:02:11.123456z", true],
    ["2026-01-17T14:02:11+01:00", true],
    ["2024-02-29T00:00:00Z", true],
    ["2026-02-29T00:00:00Z", false],
    ["2026-02-30T00:00:00Z", false],
    ["2026-13-01T00:00:00Z", false],
    ["2026-01-17T24:00:00Z", false],
    ["2026-01-17T14:60:00Z", false],
    ["2026-01-17T14:02:11+24:00", false],
    ["2026-01-17T14:02:11", false],
    ["2026-01-17", false],
    ["yesterday", false],
    [1768658531, false]
  ])("%s → %s", (value, expected) => {
    expect(isDateTime(value)).toBe(expected);
  });
});
