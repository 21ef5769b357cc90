/** A nullable timestamp column as the API shows it: ISO 8601 in UTC, or null. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
