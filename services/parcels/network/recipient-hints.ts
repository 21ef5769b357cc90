/**
 * Issue 44: what a manifest prints of a recipient, so that a courier at the merchant's door can
 * tell two parcels apart: the first name and the phone's last two digits ("Amina ••42"), nothing
 * more. The full name and number stay encrypted at rest (DESIGN §2).
 */
export function recipientHint(name: string, phone: string): string {
  const firstName = name.trim().split(/\s+/u)[0] ?? "";
  const digits = phone.replace(/\D/g, "");
  const lastTwo = digits.length >= 2 ? digits.slice(-2) : "";
  return [firstName.slice(0, 30), lastTwo ? `••${lastTwo}` : ""].filter(Boolean).join(" ") || "—";
}
