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
