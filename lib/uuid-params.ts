import type { Schema } from "./joi";

/**
 * The check of the params of a call by id, without Joi. Most GETs, and every call by id, take an
 * object of required uuids (`{ id }`, `{ parcelId }`, `{ id, parcelId }`); Joi's pass over such an
 * object was the largest part of a GET by id's validation CPU. The schema is read once, through
 * `describe()`: only an object whose every key is a required `guid()` with no other rule, no
 * default, no allowed values and no messages of its own qualifies. A value is accepted here only
 * when Joi would accept it as is: a plain object with those keys, each a hyphenated uuid in
 * canonical form (a strict subset of what `guid()` accepts), and no other key unless the schema
 * allows unknown keys. Anything else returns null, and the caller asks Joi, whose answer and
 * refusal messages stay the reference.
 */
export type UuidParamsCheck = (value: unknown) => Record<string, unknown> | null;

const CANONICAL_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** What only documents a schema: it changes no outcome. */
const DOCUMENTATION = new Set(["examples", "notes", "metas"]);
const DOCUMENTATION_FLAGS = new Set(["description", "label"]);

interface Description {
  type?: string;
  flags?: Record<string, unknown>;
  keys?: Record<string, Description>;
  rules?: { name: string; args?: unknown }[];
  [other: string]: unknown;
}

function onlyDocumentation(description: Description, allowed: string[], allowedFlags: string[]): boolean {
  const extra = Object.keys(description).filter(key => !allowed.includes(key) && !DOCUMENTATION.has(key));
  const flags = Object.keys(description.flags ?? {}).filter(flag => !allowedFlags.includes(flag) && !DOCUMENTATION_FLAGS.has(flag));
  return extra.length === 0 && flags.length === 0;
}

function isRequiredUuid(key: Description): boolean {
  return (
    key.type === "string" &&
    onlyDocumentation(key, ["type", "flags", "rules"], ["presence"]) &&
    key.flags?.presence === "required" &&
    key.rules?.length === 1 &&
    key.rules[0].name === "guid" &&
    key.rules[0].args === undefined
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  // Joi's copy keeps a null prototype; ours would not: such objects go to Joi.
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The fast check of a schema of uuids, or null for any other schema. */
export function uuidParamsCheck(schema: Schema): UuidParamsCheck | null {
  const description = schema.describe() as Description;
  if (description.type !== "object" || !description.keys) return null;
  if (!onlyDocumentation(description, ["type", "flags", "keys"], ["unknown"])) return null;
  const names = Object.keys(description.keys);
  if (names.length === 0 || !names.every(name => isRequiredUuid(description.keys![name]))) return null;
  const unknownAllowed = description.flags?.unknown === true;
  return value => {
    if (!isPlainObject(value)) return null;
    let count = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      count++;
      if (!names.includes(key) && !unknownAllowed) return null;
    }
    if (count < names.length) return null;
    for (const name of names) {
      const id = value[name];
      if (typeof id !== "string" || !CANONICAL_UUID.test(id)) return null;
    }
    // Joi answers a copy of the object, unknown keys included when they are allowed.
    return { ...value };
  };
}
