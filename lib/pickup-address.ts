import { Joi } from "./joi";
import { objectOf } from "./openapi/json-schema";
import type { JsonSchema } from "./openapi/types";

/**
 * Issue 44 B: where a courier collects a merchant's parcels. A pickup carries one; the
 * organisation may store one that a pickup booked without an address uses (auth, decision 0054).
 * A shop's address, not a person's: kept in clear.
 */
export interface PickupAddress {
  line1: string;
  city: string;
  /** The wilaya's two-digit code. */
  wilaya: string;
}

export const PICKUP_ADDRESS_EXAMPLE: PickupAddress = { line1: "12 rue Didouche Mourad", city: "Alger Centre", wilaya: "16" };

export const PickupAddressSchema = Joi.object<PickupAddress, true>({
  line1: Joi.string().trim().min(1).max(200).required().description("Street and number, building.").example("12 rue Didouche Mourad"),
  city: Joi.string().trim().min(1).max(100).required().description("Commune.").example("Alger Centre"),
  wilaya: Joi.string()
    .pattern(/^\d{2}$/)
    .required()
    .description("The wilaya's two-digit code.")
    .example("16")
});

export const PickupAddressJsonSchema: JsonSchema = objectOf<PickupAddress>(
  {
    line1: { type: "string", description: "Street and number, building." },
    city: { type: "string", description: "Commune." },
    wilaya: { type: "string", pattern: "^\\d{2}$", description: "The wilaya's two-digit code." }
  },
  { description: "Where the courier collects the parcels.", examples: [PICKUP_ADDRESS_EXAMPLE] }
);
