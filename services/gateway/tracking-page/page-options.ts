import type { Brand } from "../../../lib/brand";
import type { Lang } from "../../../lib/languages";

/** What every tracking page is rendered with (pages.ts, change-relay.ts). */
export interface PageOptions {
  /** The operator's brand (lib/brand.ts); the default brand when absent. */
  brand?: Brand;
  lang: Lang;
  /** Set when the person picked the language (`?lang=`): internal links keep it. */
  linkLang?: Lang;
  /** The clock of "open now" and of today's row in the opening hours. */
  now?: Date;
  /** The recipient just changed the relay point (change-relay.ts): said above the new one. */
  changed?: boolean;
  /** Signs a form's token for the path it posts to (form-guard.ts); absent, forms carry none. */
  formToken?: (action: string) => string;
  /**
   * Opened from the pick-up SMS's link (issue 43): its key, which the page's own links keep, and the
   * parcel's current pickup pass (null while it is not on the shelf).
   */
  pass?: { key: string; text: string | null; notMe?: boolean };
}
