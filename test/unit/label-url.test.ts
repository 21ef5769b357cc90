import { createHmac } from "node:crypto";
import { LABEL_URL_TTL_SECONDS, signLabelUrl, verifyLabelSignature } from "../../lib/label-url";

const secret = "label-secret-for-tests";
const parcelId = "3f1c2b7e-9a4d-4e21-8c55-0d6f7a1b2c3d";
const otherParcelId = "8a0e6c41-2f3b-4d5e-9a7c-1b2c3d4e5f60";
const issuedAt = Date.UTC(2025, 0, 15, 10, 0, 0);

function parse(url: string): { path: string; expires: string; signature: string } {
  const parsed = new URL(url);
  return {
    path: parsed.pathname,
    expires: parsed.searchParams.get("expires") ?? "",
    signature: parsed.searchParams.get("signature") ?? ""
  };
}

describe("signLabelUrl", () => {
  it("builds /labels/<id>.pdf with an expiry 30 minutes ahead and an HMAC-SHA256 over id.expires", () => {
    const url = signLabelUrl("https://api.example.dz/", parcelId, secret, issuedAt);
    const { path, expires, signature } = parse(url);
    expect(url.startsWith("https://api.example.dz/labels/")).toBe(true);
    expect(path).toBe(`/labels/${parcelId}.pdf`);
    expect(Number(expires)).toBe(issuedAt / 1000 + LABEL_URL_TTL_SECONDS);
    expect(LABEL_URL_TTL_SECONDS).toBe(1800);
    expect(signature).toBe(createHmac("sha256", secret).update(`${parcelId}.${expires}`).digest("hex"));
  });

  it("honours a custom lifetime", () => {
    const { expires } = parse(signLabelUrl("http://localhost:3000", parcelId, secret, issuedAt, 60));
    expect(Number(expires)).toBe(issuedAt / 1000 + 60);
  });
});

describe("verifyLabelSignature", () => {
  const { expires, signature } = parse(signLabelUrl("http://localhost:3000", parcelId, secret, issuedAt));

  it("accepts its own URL until it expires", () => {
    expect(verifyLabelSignature(parcelId, expires, signature, secret, issuedAt)).toBe("valid");
    expect(verifyLabelSignature(parcelId, expires, signature, secret, issuedAt + 1799_000)).toBe("valid");
  });

  it("reports an expired URL as expired", () => {
    expect(verifyLabelSignature(parcelId, expires, signature, secret, issuedAt + 1800_000)).toBe("expired");
    expect(verifyLabelSignature(parcelId, expires, signature, secret, issuedAt + 86_400_000)).toBe("expired");
  });

  it("refuses the signature of one parcel used for another", () => {
    expect(verifyLabelSignature(otherParcelId, expires, signature, secret, issuedAt)).toBe("invalid");
  });

  it("refuses a stretched expiry, even once the real one has passed", () => {
    const later = String(Number(expires) + 3600);
    expect(verifyLabelSignature(parcelId, later, signature, secret, issuedAt)).toBe("invalid");
    expect(verifyLabelSignature(parcelId, later, signature, secret, issuedAt + 1900_000)).toBe("invalid");
  });

  it("refuses a tampered signature", () => {
    const flipped = (signature[0] === "0" ? "1" : "0") + signature.slice(1);
    expect(verifyLabelSignature(parcelId, expires, flipped, secret, issuedAt)).toBe("invalid");
  });

  it("refuses a URL signed with another secret", () => {
    expect(verifyLabelSignature(parcelId, expires, signature, "another-secret", issuedAt)).toBe("invalid");
  });

  it.each([
    ["missing expiry", undefined, signature],
    ["missing signature", expires, undefined],
    ["empty signature", expires, ""],
    ["short signature", expires, signature.slice(0, 10)],
    ["upper-case or non-hex signature", expires, signature.toUpperCase().replace(/[0-9]/g, "Z")],
    ["signature with trailing bytes", expires, `${signature}00`],
    ["exponent expiry", "1.7e9", signature],
    ["negative expiry", `-${expires}`, signature],
    ["expiry with a leading zero", `0${expires}`, signature],
    ["expiry with spaces", ` ${expires}`, signature]
  ])("refuses a malformed URL: %s", (_case, badExpires, badSignature) => {
    expect(verifyLabelSignature(parcelId, badExpires, badSignature, secret, issuedAt)).toBe("invalid");
  });

  it("refuses an empty parcel id", () => {
    expect(verifyLabelSignature("", expires, signature, secret, issuedAt)).toBe("invalid");
  });
});
