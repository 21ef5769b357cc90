import { ConfigError } from "./config-checks";

/**
 * The name, colour and logo recipients see (issue 30): on the tracking pages, in every SMS and
 * on the labels. Configurable because the service runs under its operator's brand; the default is
 * a plain, readable name rather than the project's code name.
 */
export interface Brand {
  /** BRAND_NAME: 1 to 30 characters; it starts every SMS, so it is kept short. */
  name: string;
  /** BRAND_COLOR: #rrggbb, the pages' accent colour. */
  color: string;
  /** BRAND_LOGO_URL: an https (or http) image shown at the top of the pages; null: the name alone. */
  logoUrl: string | null;
}

export const DEFAULT_BRAND: Readonly<Brand> = Object.freeze({ name: "Relais DZ", color: "#0b6e4f", logoUrl: null });

export function brandOf(env: { name: string | null; color: string | null; logoUrl: string | null }): Brand {
  const name = (env.name ?? DEFAULT_BRAND.name).replace(/\s+/g, " ").trim();
  if (name.length < 1 || name.length > 30 || /[<>]/.test(name))
    throw new ConfigError("BRAND_NAME must be 1 to 30 characters, without < or >");
  const color = (env.color ?? DEFAULT_BRAND.color).trim();
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw new ConfigError("BRAND_COLOR must be a colour as #rrggbb");
  let logoUrl: string | null = null;
  if (env.logoUrl) {
    try {
      const url = new URL(env.logoUrl);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("scheme");
      logoUrl = url.toString();
    } catch {
      throw new ConfigError("BRAND_LOGO_URL must be an absolute http(s) URL");
    }
  }
  return { name, color: color.toLowerCase(), logoUrl };
}
