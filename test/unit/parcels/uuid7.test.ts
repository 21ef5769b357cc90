import Joi from "joi";
import { uuidv7 } from "../../../services/parcels/uuid7";

/** Issue 48: parcel ids are time-ordered (UUIDv7), so that new rows append to the id indexes. */
describe("uuidv7", () => {
  it("is a version-7, RFC 9562 variant uuid that the API's uuid parameters accept", () => {
    const id = uuidv7();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Joi.string().guid().validate(id).error).toBeUndefined();
  });

  it("starts with the millisecond it was made in, so ids made later sort after", () => {
    const at = Date.UTC(2026, 11, 7, 3, 15);
    expect(uuidv7(at).replace(/-/g, "").slice(0, 12)).toBe(at.toString(16).padStart(12, "0"));
    const earlier = uuidv7(at);
    const later = uuidv7(at + 1);
    expect(earlier < later).toBe(true);
  });

  it("differs in its random part within one millisecond, across the generator's refills", () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => uuidv7(at)));
    expect(ids.size).toBe(1000);
  });
});
