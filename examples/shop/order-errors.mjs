// What the customer reads when our API refuses an order: French, the shop's language, one line per
// thing to fix. The API's `message` is written for developers, in English: it goes to the shop's
// log, never to the page. The codes and fields are the API's (docs/merchants/errors.md).
import { RelayError, ValidationError } from "../../sdk/typescript/dist/esm/index.js";

/** A field of the create request, as the checkout's form asks for it. */
const FIELD_PROBLEMS = {
  recipientName: "Indiquez votre nom et prénom (100 caractères au plus).",
  recipientPhone: "Le numéro de téléphone n'est pas valide : 10 chiffres, par exemple 0555 12 34 56.",
  destinationRelayCode: "Choisissez un point relais dans la liste."
};

/** The refusals a customer can fix by changing the order. */
const CODE_PROBLEMS = {
  RECIPIENT_PHONE_INVALID: "Ce numéro ne peut pas recevoir de SMS : indiquez un numéro de mobile (05, 06 ou 07).",
  RELAY_NOT_FOUND: "Ce point relais n'existe plus : choisissez-en un autre.",
  RELAY_CLOSED: "Ce point relais est fermé ces jours-ci : choisissez-en un autre.",
  RELAY_FULL: "Ce point relais est complet pour le moment : choisissez-en un autre."
};

/**
 * The checkout's answer to a refused order: `lines` for the customer to fix (a 400 page), or
 * nothing to fix (`lines` empty: the order failed on our side or the merchant's, say so and keep
 * the reference for support).
 * @param {unknown} err
 * @returns {{ lines: string[], status: number, reference: string } | null} null when it is not an API error
 */
export function orderRefusal(err) {
  if (!(err instanceof RelayError)) return null;
  const reference = err.requestId ?? err.code;
  if (err.code in CODE_PROBLEMS)
    return { lines: [CODE_PROBLEMS[/** @type {keyof typeof CODE_PROBLEMS} */ (err.code)]], status: 400, reference };
  if (err instanceof ValidationError) {
    const fields = [...new Set(err.details.map(d => d.field.split(".")[0]))];
    const lines = fields.filter(f => f in FIELD_PROBLEMS).map(f => FIELD_PROBLEMS[/** @type {keyof typeof FIELD_PROBLEMS} */ (f)]);
    // A field the form does not ask for (a weight, an amount) is the shop's own mistake, not the customer's.
    if (lines.length === fields.length && lines.length > 0) return { lines, status: 400, reference };
  }
  return { lines: [], status: 503, reference };
}
