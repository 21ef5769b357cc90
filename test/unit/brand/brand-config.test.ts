import { ConfigError, loadConfig } from "../../../lib/config";
import { brandOf, DEFAULT_BRAND, logoOrigin } from "../../../lib/brand";
import { brandPalette, contrast } from "../../../services/gateway/tracking-page/brand-palette";

/** BRAND_NAME, BRAND_COLOR, BRAND_LOGO_URL (issue 30): checked at start, with a message naming the variable. */

const brand = (env: Partial<Record<"name" | "color" | "logoUrl", string>>) =>
  brandOf({ name: env.name ?? null, color: env.color ?? null, logoUrl: env.logoUrl ?? null });

describe("the brand's configuration", () => {
  it("defaults to Relais DZ, its green and no logo", () => {
    expect(loadConfig({}).brand).toEqual({ name: "Relais DZ", color: "#0b6e4f", logoUrl: null });
    expect(DEFAULT_BRAND.name).toBe("Relais DZ");
  });

  it("takes the three variables at start; #rgb is the short form of #rrggbb", () => {
    expect(
      loadConfig({ BRAND_NAME: "Colis Express", BRAND_COLOR: "#0a7", BRAND_LOGO_URL: "https://cdn.colis.example/logo.svg" }).brand
    ).toEqual({
      name: "Colis Express",
      color: "#00aa77",
      logoUrl: "https://cdn.colis.example/logo.svg"
    });
    expect(brand({ color: "#0B6E4F" }).color).toBe("#0b6e4f");
  });

  it.each(["green", "#12345", "#1234567", "0a7", "#ggg", "rgb(0,0,0)", "#0a7;}body{display:none"])(
    "refuses BRAND_COLOR=%s with a config error naming the variable",
    color => {
      expect(() => loadConfig({ BRAND_COLOR: color })).toThrow(ConfigError);
      expect(() => loadConfig({ BRAND_COLOR: color })).toThrow(/BRAND_COLOR must be a hex colour/);
    }
  );

  it.each(["x".repeat(17), "<b>Relais</b>"])("refuses BRAND_NAME=%j", name => {
    expect(() => loadConfig({ BRAND_NAME: name })).toThrow(/BRAND_NAME/);
  });

  it("takes an https logo, or a path of this server", () => {
    expect(brand({ logoUrl: "/assets/logo.png" }).logoUrl).toBe("/assets/logo.png");
    expect(brand({ logoUrl: "https://cdn.example/l.svg?v=2&x=1" }).logoUrl).toBe("https://cdn.example/l.svg?v=2&x=1");
  });

  it.each([
    "http://cdn.example/logo.png",
    "//cdn.example/logo.png",
    "javascript:alert(1)",
    "data:image/svg+xml,<svg/>",
    "logo.png",
    '/logo.png" onerror="alert(1)',
    "https://user:secret@cdn.example/logo.png"
  ])("refuses BRAND_LOGO_URL=%s", logoUrl => {
    expect(() => loadConfig({ BRAND_LOGO_URL: logoUrl })).toThrow(/BRAND_LOGO_URL/);
  });

  it("names the origin the pages' CSP must allow: only for a logo on another host", () => {
    expect(logoOrigin({ logoUrl: null })).toBeNull();
    expect(logoOrigin({ logoUrl: "/logo.png" })).toBeNull();
    expect(logoOrigin({ logoUrl: "https://cdn.example:8443/a/logo.svg" })).toBe("https://cdn.example:8443");
  });
});

describe("the colours derived from BRAND_COLOR stay readable (WCAG AA, 4.5:1)", () => {
  it.each(["#00aa77", "#0b6e4f", "#ffff00", "#ffffff", "#000000", "#ff6600", "#0b4f8a", "#7f7f7f"])("%s", color => {
    const p = brandPalette(color);
    expect(p.brand).toBe(color);
    // The header's text on the brand colour, and the links in the brand's shade on the page.
    expect(contrast(p.ink, p.brand)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.text, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p.text, "#f2f4f7")).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps a dark brand colour as it is for links, and darkens a light one", () => {
    expect(brandPalette("#0b4f8a").text).toBe("#0b4f8a");
    expect(brandPalette("#00aa77").text).not.toBe("#00aa77");
    expect(brandPalette("#00aa77").ink).toBe("#000000");
  });
});
