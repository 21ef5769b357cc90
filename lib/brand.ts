import { ConfigError } from "./config-checks";

/**
 * The name, colour and logo recipients see (issue 30): on the tracking pages, in every SMS and
 * on the labels. Configurable because the service runs under its operator's brand; the default is
 * a plain, readable name rather than the project's code name.
 */
export interface Brand {
  /** BRAND_NAME: 1 to MAX_BRAND_NAME_LENGTH characters; it starts every SMS, so it is kept short. */
  name: string;
  /** BRAND_COLOR: #rgb or #rrggbb, kept as lower-case #rrggbb; the pages' accent colour. */
  color: string;
  /**
   * BRAND_LOGO_URL: an https image, or a path of this server (`/…`), shown at the top of the
   * tracking pages; null: the name alone. http is refused: the pages are served over https, and a
   * browser would block (or flag) a mixed-content image.
   */
  logoUrl: string | null;
}

/**
 * The name starts every SMS, whose segments are counted (services/notifications/sms-texts.ts):
 * each character of it is one the relay point's name loses. Measured with the directory's longest
 * names, the largest COD and a deadline, 16 characters still leave the Arabic pick-up SMS (UCS-2,
 * two segments) about 9 letters of the relay's name, and French and English 12 or more; at 30
 * the name went down to nothing (test/unit/brand/brand-sms.test.ts).
 */
export const MAX_BRAND_NAME_LENGTH = 16;

export const DEFAULT_BRAND: Readonly<Brand> = Object.freeze({ name: "Relais DZ", color: "#0b6e4f", logoUrl: null });

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#0a7` → `#00aa77`; `#0B6E4F` → `#0b6e4f`. */
function longHex(color: string): string {
  const lower = color.toLowerCase();
  return lower.length === 4 ? `#${[...lower.slice(1)].map(c => c + c).join("")}` : lower;
}

function logoOf(raw: string | null): string | null {
  const value = raw?.trim();
  if (!value) return null;
  // A path of this server: one leading slash (two would be a protocol-relative URL to another host).
  if (/^\/(?!\/)/.test(value)) {
    if (/[\s"'<>\\]/.test(value)) throw new ConfigError("BRAND_LOGO_URL: a path must not contain spaces, quotes, < > or \\");
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError("BRAND_LOGO_URL must be an https URL or a path of this server starting with /");
  }
  if (url.protocol !== "https:") throw new ConfigError("BRAND_LOGO_URL must be an https URL or a path of this server starting with /");
  if (url.username || url.password) throw new ConfigError("BRAND_LOGO_URL must not carry a user name or password");
  return url.toString();
}

export function brandOf(env: { name: string | null; color: string | null; logoUrl: string | null }): Brand {
  const name = (env.name ?? DEFAULT_BRAND.name).replace(/\s+/g, " ").trim();
  if (name.length < 1 || name.length > MAX_BRAND_NAME_LENGTH || /[<>]/.test(name))
    throw new ConfigError(`BRAND_NAME must be 1 to ${MAX_BRAND_NAME_LENGTH} characters (it starts every SMS), without < or >`);
  const color = (env.color ?? DEFAULT_BRAND.color).trim();
  if (!HEX_COLOUR.test(color)) throw new ConfigError(`BRAND_COLOR must be a hex colour as #rrggbb or #rgb, not ${JSON.stringify(color)}`);
  return { name, color: longHex(color), logoUrl: logoOf(env.logoUrl) };
}

/** The origin the pages' CSP must allow for the logo: null for none or a path of this server ('self'). */
export function logoOrigin(brand: Pick<Brand, "logoUrl">): string | null {
  return brand.logoUrl && !brand.logoUrl.startsWith("/") ? new URL(brand.logoUrl).origin : null;
}
