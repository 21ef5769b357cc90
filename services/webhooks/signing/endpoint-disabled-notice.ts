import { DISABLE_ENDPOINT_AFTER_MS } from "../retry-schedule";
import { formatDateTime } from "../../../lib/algiers-format";
import { Instant, millisOf } from "./rotation";

/**
 * The notice the webhooks service stores (and mails) when it disables an endpoint that has failed
 * for 5 days: Standard Webhooks asks that the consumer be told through another channel. French
 * first, then English, in plain text: it reads the same in any mail client and cannot carry markup.
 */

export interface EndpointDisabledNoticeInput {
  organizationName: string;
  /** BRAND_NAME (lib/brand.ts): the team that signs the notice. */
  brandName: string;
  /** Only its scheme and host are shown: a path or query may hold a token of the merchant's. */
  endpointUrl: string;
  firstFailureAt: Instant;
  disabledAt: Instant;
  /** The last attempt's short error, as in the delivery log ("HTTP 500", "timed out after 15000 ms"). */
  lastError: string | null;
  /** Deliveries of the endpoint left failed or pending when it was disabled. */
  undeliveredCount: number;
}

export interface EndpointDisabledNotice {
  kind: "webhook.endpoint_disabled";
  /** Language of the first part; the English text follows it in the same body. */
  language: "fr";
  subject: string;
  text: string;
}

const MAX_NAME_LENGTH = 100;
const MAX_ERROR_LENGTH = 200;
const DISABLE_AFTER_DAYS = DISABLE_ENDPOINT_AFTER_MS / (24 * 3600 * 1000);

/** One line of printable text: no line break can reach a mail header or forge a paragraph. */
function oneLine(text: string, maxLength: number): string {
  const flat = text
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

function shownOrigin(url: string): string {
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return "?";
  }
}

function dateOf(instant: Instant, lang: "fr" | "en"): string {
  return formatDateTime(new Date(millisOf(instant)).toISOString(), lang);
}

export function endpointDisabledNotice(input: EndpointDisabledNoticeInput): EndpointDisabledNotice {
  if (!Number.isSafeInteger(input.undeliveredCount) || input.undeliveredCount < 0) {
    throw new RangeError(`undeliveredCount must be a non-negative integer, got ${input.undeliveredCount}`);
  }
  const name = oneLine(input.organizationName, MAX_NAME_LENGTH) || "—";
  const brand = oneLine(input.brandName, MAX_NAME_LENGTH);
  const origin = shownOrigin(input.endpointUrl);
  const lastError = input.lastError === null ? null : oneLine(input.lastError, MAX_ERROR_LENGTH);
  const count = input.undeliveredCount;

  const undeliveredFr =
    count === 0
      ? "Aucune livraison n'était en attente."
      : count === 1
        ? "1 livraison n'a pas abouti."
        : `${count} livraisons n'ont pas abouti.`;
  const undeliveredEn =
    count === 0 ? "No delivery was waiting." : count === 1 ? "1 delivery did not go through." : `${count} deliveries did not go through.`;

  const french = [
    `Bonjour ${name},`,
    "",
    `Depuis le ${dateOf(input.firstFailureAt, "fr")} (heure d'Alger), chaque envoi de webhook vers ${origin} a échoué` +
      (lastError ? ` (dernière erreur : ${lastError}).` : "."),
    `Après ${DISABLE_AFTER_DAYS} jours sans un seul succès, nous avons désactivé cette adresse le ${dateOf(input.disabledAt, "fr")} : ` +
      "nous n'y envoyons plus rien.",
    "",
    `Aucun événement n'est perdu. ${undeliveredFr} Les événements qui arrivent pendant la désactivation sont conservés eux aussi.`,
    "",
    "Pour reprendre :",
    "1. Vérifiez que votre adresse répond par un code 2xx en moins de 15 secondes, et qu'elle vérifie la signature avec le bon secret.",
    "2. Enregistrez de nouveau l'adresse dans le back-office (Paramètres, Webhooks) : l'envoi reprend aussitôt.",
    "3. Renvoyez depuis le journal des livraisons celles qui ont échoué ou n'ont pas été envoyées.",
    "",
    `L'équipe ${brand}`
  ];
  const english = [
    `Hello ${name},`,
    "",
    `Since ${dateOf(input.firstFailureAt, "en")} (Algiers time), every webhook delivery to ${origin} has failed` +
      (lastError ? ` (last error: ${lastError}).` : "."),
    `After ${DISABLE_AFTER_DAYS} days without a single success, we disabled this endpoint on ${dateOf(input.disabledAt, "en")}: ` +
      "nothing is sent to it any more.",
    "",
    `No event is lost. ${undeliveredEn} Events that happen while the endpoint is disabled are kept too.`,
    "",
    "To resume:",
    "1. Check that your endpoint answers with a 2xx status within 15 seconds, and verifies the signature with the right secret.",
    "2. Save the endpoint URL again in the back-office (Settings, Webhooks): deliveries resume at once.",
    "3. From the delivery log, redeliver the deliveries that failed or were not sent.",
    "",
    `The ${brand} team`
  ];
  return {
    kind: "webhook.endpoint_disabled",
    language: "fr",
    subject: `Webhooks désactivés / Webhooks disabled – ${name}`,
    text: [...french, "", "— English —", "", ...english].join("\n")
  };
}
