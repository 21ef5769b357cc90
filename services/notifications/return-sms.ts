import { formatDateTime } from "../../lib/algiers-format";
import type { ParcelEventParams } from "./notifications.params";

/** What the return code SMS (issue 21) needs of a return.created event; null when the event lacks it. */
export function returnCodeOf(event: ParcelEventParams["event"]): { code: string; expiresAt: string } | null {
  const data = event.data as { return?: { returnCode?: unknown; expiresAt?: unknown } } | undefined;
  const { returnCode, expiresAt } = data?.return ?? {};
  return typeof returnCode === "string" && typeof expiresAt === "string" ? { code: returnCode, expiresAt } : null;
}

/** A return parcel (issue 21) is collected by the merchant with the PIN of their return: no SMS to the customer. */
export function isReturnParcelEvent(event: ParcelEventParams["event"]): boolean {
  return (event.data as { parcel?: { direction?: unknown } } | undefined)?.parcel?.direction === "RETURN";
}

/**
 * The return code SMS, in French like the others: the parcel, the code to say at any relay point
 * and the deadline in Algiers time. The code is what the stored copy masks (as the PIN is).
 */
export function composeReturnCodeSms(input: { trackingNumber: string; code: string | null; expiresAt: string | null }): string {
  const until = input.expiresAt ? ` avant le ${formatDateTime(input.expiresAt, "fr")}` : "";
  return (
    `Retour de votre colis ${input.trackingNumber}: déposez-le dans n'importe quel point relais${until} ` +
    `en donnant le code de retour ${input.code ?? ""}. Aucun frais pour vous.`
  );
}
