import { createHmac } from "node:crypto";
import {
  LABEL_URL_TTL_SECONDS,
  packParcelIds,
  signLabelBatchUrl,
  signLabelUrl,
  unpackParcelIds,
  verifyLabelBatchSignature,
  verifyLabelSignature
} from "../../lib/label-url";

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

  it("gives each base URL and secret its own URL within one second, whatever order they sign in", () => {
    const sign = (base: string, key: string) => signLabelUrl(base, parcelId, key, issuedAt);
    const first = sign("https://a.example.dz", secret);
    const otherBase = sign("https://b.example.dz", secret);
    const otherSecret = sign("https://a.example.dz", "another-secret");
    expect(otherBase.startsWith("https://b.example.dz/labels/")).toBe(true);
    expect(parse(otherSecret).signature).toBe(
      createHmac("sha256", "another-secret")
        .update(`${parcelId}.${parse(first).expires}`)
        .digest("hex")
    );
    expect(parse(otherSecret).signature).not.toBe(parse(first).signature);
    expect(sign("https://a.example.dz", secret)).toBe(first);
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

  it("refuses an empty parcel id, and anything that is not a lower-case uuid", () => {
    expect(verifyLabelSignature("", expires, signature, secret, issuedAt)).toBe("invalid");
    expect(verifyLabelSignature(parcelId.toUpperCase(), expires, signature, secret, issuedAt)).toBe("invalid");
  });

  it("leaves the print options out of the signature: the same URL prints in any format", () => {
    const url = new URL(`${signLabelUrl("http://localhost:3000", parcelId, secret, issuedAt)}&format=zpl&startOffset=0`);
    const [sig, exp] = [url.searchParams.get("signature") ?? "", url.searchParams.get("expires") ?? ""];
    expect(verifyLabelSignature(parcelId, exp, sig, secret, issuedAt)).toBe("valid");
  });
});

/** The last character of 16 bytes in base64url carries 2 bits of data and 4 unused ones: flip an unused one. */
function sameBytesOtherSpelling(token: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const other = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
  if (!Buffer.from(other, "base64url").equals(Buffer.from(token, "base64url"))) throw new Error("not the same bytes");
  return other;
}

describe("merged documents: packed parcel ids", () => {
  const ids = Array.from({ length: 100 }, (_, i) => `${i.toString(16).padStart(8, "0")}-2f3b-4d5e-9a7c-1b2c3d4e5f60`);

  it("packs 16 bytes per uuid as base64url and unpacks them in order", () => {
    const token = packParcelIds([parcelId, otherParcelId]);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(unpackParcelIds(token)).toEqual([parcelId, otherParcelId]);
    const hundred = packParcelIds(ids);
    expect(hundred).toHaveLength(2134);
    expect(unpackParcelIds(hundred)).toEqual(ids);
  });

  it.each([
    ["nothing", ""],
    ["a partial uuid", packParcelIds([parcelId]).slice(0, 20)],
    ["a uuid and a half", Buffer.alloc(24).toString("base64url")],
    ["101 uuids", Buffer.alloc(1616).toString("base64url")],
    ["another spelling of the same bytes", sameBytesOtherSpelling(packParcelIds([parcelId]))],
    ["padding", `${packParcelIds([parcelId])}==`],
    [
      "standard base64",
      Buffer.from(packParcelIds([parcelId]), "base64url")
        .toString("base64")
        .replace(/=+$/, "") + "+"
    ]
  ])("refuses %s", (_what, token) => {
    expect(unpackParcelIds(token)).toBeNull();
  });
});

describe("signLabelBatchUrl and verifyLabelBatchSignature", () => {
  const print = { format: "a4", startOffset: 2 };
  const parse = (url: string) => {
    const parsed = new URL(url);
    const get = (name: string) => parsed.searchParams.get(name) ?? "";
    return { path: parsed.pathname, parcels: get("parcels"), expires: get("expires"), signature: get("signature"), format: get("format") };
  };

  it("builds /labels/batch.pdf with the format, offset, packed parcels, a 30-minute expiry and an HMAC of them", () => {
    const { url, expiresAt } = signLabelBatchUrl("https://api.example.dz/", [parcelId, otherParcelId], secret, print, issuedAt);
    const parts = parse(url);
    expect(parts.path).toBe("/labels/batch.pdf");
    expect(new URL(url).searchParams.get("startOffset")).toBe("2");
    expect(parts.format).toBe("a4");
    expect(unpackParcelIds(parts.parcels)).toEqual([parcelId, otherParcelId]);
    expect(Number(parts.expires)).toBe(issuedAt / 1000 + LABEL_URL_TTL_SECONDS);
    expect(expiresAt).toBe(new Date(issuedAt + LABEL_URL_TTL_SECONDS * 1000).toISOString());
    expect(parts.signature).toBe(createHmac("sha256", secret).update(`batch:${parts.parcels}.${parts.expires}`).digest("hex"));
    expect(verifyLabelBatchSignature(parts.parcels, parts.expires, parts.signature, secret, issuedAt)).toBe("valid");
    expect(verifyLabelBatchSignature(parts.parcels, parts.expires, parts.signature, secret, issuedAt + 1800_000)).toBe("expired");
    expect(
      new URL(signLabelBatchUrl("https://x.dz", [parcelId], secret, { format: "a6", startOffset: 0 }).url).searchParams.has("startOffset")
    ).toBe(false);
  });

  it("binds the list and its order: fewer, more or reordered parcels do not verify", () => {
    const { parcels, expires, signature } = parse(
      signLabelBatchUrl("http://localhost", [parcelId, otherParcelId], secret, print, issuedAt).url
    );
    for (const list of [[parcelId], [otherParcelId, parcelId], [parcelId, otherParcelId, parcelId]]) {
      expect(verifyLabelBatchSignature(packParcelIds(list), expires, signature, secret, issuedAt)).toBe("invalid");
    }
    expect(verifyLabelBatchSignature(parcels, expires, signature, "another-secret", issuedAt)).toBe("invalid");
    expect(verifyLabelBatchSignature(parcels, String(Number(expires) + 1), signature, secret, issuedAt)).toBe("invalid");
  });

  it("never accepts a single label's signature for a document, nor the other way round", () => {
    const single = parse(signLabelUrl("http://localhost", parcelId, secret, issuedAt));
    expect(verifyLabelBatchSignature(packParcelIds([parcelId]), single.expires, single.signature, secret, issuedAt)).toBe("invalid");
    const batch = parse(signLabelBatchUrl("http://localhost", [parcelId], secret, print, issuedAt).url);
    expect(verifyLabelSignature(parcelId, batch.expires, batch.signature, secret, issuedAt)).toBe("invalid");
    expect(verifyLabelSignature(`batch:${batch.parcels}`, batch.expires, batch.signature, secret, issuedAt)).toBe("invalid");
  });
});
