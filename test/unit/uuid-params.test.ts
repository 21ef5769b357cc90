import fc from "fast-check";
import { Joi } from "../../lib/joi";
import { uuidParamsCheck } from "../../lib/uuid-params";
import { validateWith } from "../../lib/validation";
import { IdSchema } from "../../services/parcels/parcels.params";
import { ClosureIdSchema } from "../../services/parcels/relay/closures.params";

const OPTIONS = { abortEarly: false, convert: false, errors: { wrap: { label: false } } } as const;
const uuid = () => Joi.string().guid();
const Strict = Joi.object({ parcelId: uuid().required() });
const Pair = Joi.object({ id: uuid().required(), parcelId: uuid().required().description("documented") });

/** Strings around the uuid shape: canonical, upper case, braces, no hyphens, one character off, other types. */
const idLike = fc.oneof(
  { arbitrary: fc.uuid(), weight: 8 },
  fc.uuid().map(id => id.toUpperCase()),
  fc.uuid().map(id => `{${id}}`),
  fc.uuid().map(id => id.replace(/-/g, "")),
  fc
    .tuple(fc.uuid(), fc.nat(35), fc.constantFrom("g", "-", " ", "0", "\u0660"))
    .map(([id, at, c]) => id.slice(0, at) + c + id.slice(at + 1)),
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined)
);
const paramsLike = fc
  .tuple(fc.subarray(["id", "parcelId", "page", "x"]), fc.array(idLike, { minLength: 4, maxLength: 4 }))
  .map(([keys, values]) => Object.fromEntries(keys.map((key, i) => [key, values[i]])));

describe("the check of params by id without Joi", () => {
  test("qualifies only objects of required uuids with nothing but documentation besides", () => {
    expect(uuidParamsCheck(IdSchema)).not.toBeNull();
    expect(uuidParamsCheck(Strict)).not.toBeNull();
    expect(uuidParamsCheck(Pair)).not.toBeNull();
    expect(uuidParamsCheck(ClosureIdSchema)).toBeNull();
    expect(uuidParamsCheck(Joi.object({ id: uuid() }))).toBeNull();
    expect(uuidParamsCheck(Joi.object({ id: uuid().required().allow(null) }))).toBeNull();
    expect(uuidParamsCheck(Joi.object({ id: Joi.string().guid({ version: "uuidv4" }).required() }))).toBeNull();
    expect(uuidParamsCheck(Joi.object({ id: uuid().required().messages({ "string.guid": "no" }) }))).toBeNull();
    expect(uuidParamsCheck(Joi.object({ id: uuid().required() }).rename("parcel", "id"))).toBeNull();
    expect(uuidParamsCheck(Joi.object({}))).toBeNull();
    expect(uuidParamsCheck(Joi.string())).toBeNull();
  });

  test.each([
    ["unknown keys allowed", IdSchema],
    ["unknown keys refused", Strict],
    ["two ids", Pair]
  ])("whatever it accepts, Joi accepts with the same value (%s)", (_name, schema) => {
    const check = uuidParamsCheck(schema)!;
    let taken = 0;
    fc.assert(
      fc.property(paramsLike, params => {
        const fast = check(params);
        if (fast === null) return;
        taken++;
        const joi = schema.prefs(OPTIONS).validate(params);
        expect(joi.error).toBeUndefined();
        expect(fast).toStrictEqual(joi.value);
        expect(fast).not.toBe(params);
      }),
      { numRuns: 2000 }
    );
    // The property says something only if the fast path was taken.
    expect(taken).toBeGreaterThan(10);
  });

  test("takes the canonical ids of a GET by id, and leaves every refusal to Joi's messages", () => {
    const id = "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70";
    const check = uuidParamsCheck(IdSchema)!;
    expect(check({ id })).toEqual({ id });
    expect(check({ id, extra: "kept" })).toEqual({ id, extra: "kept" });
    expect(uuidParamsCheck(Strict)!({ parcelId: id, extra: 1 })).toBeNull();
    expect(check({ id: `{${id}}` })).toBeNull();
    expect(check(Object.assign(Object.create({ inherited: 1 }), { id }))).toBeNull();
    expect(validateWith(IdSchema, { id: "nope" })).toEqual({ problems: [{ field: "id", message: "id must be a valid GUID" }] });
    expect(validateWith(IdSchema, {})).toEqual({ problems: [{ field: "id", message: "id is required" }] });
    expect(validateWith(IdSchema, { id: `{${id}}` })).toEqual({ value: { id: `{${id}}` } });
  });
});
