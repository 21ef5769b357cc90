import { signLabelUrl, signManifestUrl, verifyLabelSignature, verifyManifestSignature } from "../../../lib/label-url";
import { countCodeFor, countCodeOf } from "../../../services/logistics/manifests/count-code";
import { recipientHint } from "../../../services/parcels/network/recipient-hints";

/** Issue 44 B: what a manifest prints of a recipient, the merchant's count code, and the manifest's signed URL. */

describe("the recipient hint", () => {
  it.each([
    ["Amina Benali", "+213 555 12 34 56", "Amina ••56"],
    ["  أمينة   بن علي ", "0555123407", "أمينة ••07"],
    ["Karim", "7", "Karim"],
    ["", "", "—"]
  ])("%s / %s → %s: the first name and the phone's last two digits, nothing more", (name, phone, hint) => {
    expect(recipientHint(name, phone)).toBe(hint);
  });
});

describe("the merchant's count code", () => {
  const pickup = "6f1c8f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
  it("is six digits, the same for one pickup and secret, another for another pickup or secret", () => {
    const code = countCodeOf(pickup, "secret-a");
    expect(code).toMatch(/^\d{6}$/);
    expect(countCodeOf(pickup, "secret-a")).toBe(code);
    expect(countCodeOf(pickup, "secret-b")).not.toBe(code);
    expect(countCodeOf("6f1c8f7e-1d2a-4c3b-9e8f-0a1b2c3d4e60", "secret-a")).not.toBe(code);
  });

  it("is shown only while the courier may still come", () => {
    expect(countCodeFor({ id: pickup, status: "CONFIRMED" }, "s")).toMatch(/^\d{6}$/);
    expect(countCodeFor({ id: pickup, status: "IN_PROGRESS" }, "s")).toMatch(/^\d{6}$/);
    for (const status of ["COMPLETED", "PARTIALLY_COMPLETED", "CANCELLED", "MISSED"] as const) {
      expect(countCodeFor({ id: pickup, status }, "s")).toBeNull();
    }
  });
});

describe("a manifest's signed URL", () => {
  const id = "0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a";
  const parts = (url: string) => {
    const u = new URL(url);
    return { expires: u.searchParams.get("expires") ?? undefined, signature: u.searchParams.get("signature") ?? undefined };
  };
  const now = Date.UTC(2026, 2, 12, 9);

  it("verifies for its manifest until it expires, 30 minutes on", () => {
    const url = signManifestUrl("https://api.example.dz", id, "secret", now);
    expect(url).toMatch(new RegExp(`^https://api\\.example\\.dz/labels/manifests/${id}\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const { expires, signature } = parts(url);
    expect(verifyManifestSignature(id, expires, signature, "secret", now + 29 * 60_000)).toBe("valid");
    expect(verifyManifestSignature(id, expires, signature, "secret", now + 31 * 60_000)).toBe("expired");
    expect(verifyManifestSignature("0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6b", expires, signature, "secret", now)).toBe("invalid");
    expect(verifyManifestSignature(id, expires, signature, "other", now)).toBe("invalid");
  });

  it("is no label URL, and a label URL is no manifest URL, for the same id", () => {
    const manifest = parts(signManifestUrl("https://api.example.dz", id, "secret", now));
    const label = parts(signLabelUrl("https://api.example.dz", id, "secret", now));
    expect(verifyLabelSignature(id, manifest.expires, manifest.signature, "secret", now)).toBe("invalid");
    expect(verifyManifestSignature(id, label.expires, label.signature, "secret", now)).toBe("invalid");
  });
});
