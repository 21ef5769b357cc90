import communeList from "../../resources/communes.json";
import { Commune, COMMUNES, communeCodeSchema, communeName, communesOf, findCommune } from "../../lib/communes";
import { WILAYAS } from "../../lib/wilayas";
import { foldSearchText } from "../../services/parcels/search-text";

/**
 * resources/communes.json (issue 47): Algeria's 1,541 communes in the 69 wilayas of law 26-06.
 * The communes of the eleven new wilayas are checked against a second list of the reform
 * (geoalgeria's communes_new_wilayas.csv, the French spellings below), not against the file itself.
 */

/** The communes of each 2026 wilaya as that list spells them ("Draa" there is Derrag, دراق, whose name it misspells). */
// prettier-ignore
const COMMUNES_OF_2026: Record<string, string[]> = {
  "59": ["Aflou", "Gueltat Sidi Saâd", "Aïn Sidi Ali", "Beidha", "Brida", "El Ghicha", "Hadj Mechri", "Sebgag", "Taouiala", "Oued Morra", "Oued M'zi", "Sidi Bouzid"],
  "60": ["Barika", "Bitam", "Abdelkader Azil", "Tilatou", "Seggana", "Djezzar", "Amdoukal", "Ouled Ammar"],
  "61": ["El Kantara", "Aïn Zaatout", "El Branès", "El Outaya", "Djemorah"],
  "62": ["Bir El Ater", "Negrine", "El Ogla El Malha", "Ferkane"],
  "63": ["El Aricha", "El Gor", "Sidi Djillali", "El Bouihi"],
  "64": ["Ksar Chellala", "Zmalet Emir Abdelkader", "Rechaïga", "Hamadia", "Serghine", "Bougara"],
  "65": ["Aïn Oussera", "Birine", "Bouira Lahdab", "El Khemis", "Sidi Ladjel", "Had Sahary", "Guernini", "Benhar", "Hassi Fdoul", "Aïn Fekka"],
  "66": ["Messaad", "Sed Rahal", "Feidh El Botma", "Guettara", "Selmana", "Oum El Adham", "Deldoul", "Amourah"],
  "67": [
    "Ksar El Boukhari", "Ouled Maaref", "Aïn Boucif", "Derrag", "Bouaiche", "El Kef Lakhdar", "Chellalet El Adhaoura", "Ouled Hellal",
    "Tafraout", "Boughar", "Sidi Damed", "Aziz", "Chahbounia", "Cheniguel", "Aïn El Ksar", "Oum El Djellil", "Meftaha", "Boughzoul",
    "El Aouinet", "Ouled Antar", "Es-Sanaag"
  ],
  "68": [
    "Bou Saâda", "Khoubana", "M'cif", "Ouled Sidi Brahim", "Sidi Ameur", "Tamsa", "Ben Srour", "Ouled Slimane", "El Houamed", "El Hamel",
    "Zarzour", "Mohamed Boudiaf", "Benzouh", "Bir Foda", "Aïn Fares", "Sidi M'hamed", "Menaâ", "Aïn El Melh", "Medjedel", "Slim",
    "Aïn Errich", "Oulteme", "Djebel Messaad"
  ],
  "69": ["El Abiodh Sidi Cheikh", "Aïn El Arak", "Arbaouet", "Bou Semghoun", "Chellala", "El Bnoud", "El Mehara"]
};

/** Communes without a postal code we could vouch for: none in the source, or one of a homonym elsewhere (resources/README.md). */
const WITHOUT_POSTAL_CODE = ["0561", "2014", "2304", "3125", "4627", "4706", "4707", "5102", "5106", "2838"];

const spellings = (c: { name: string; nameAr: string; aliases?: string[] }) => [c.name, c.nameAr, ...(c.aliases ?? [])];

/** No two communes of `group` share a spelling, as the search folds it: each spelling names one commune. */
function expectOneCommunePerSpelling(label: string, group: readonly Commune[]): void {
  const seen = new Map<string, string>();
  for (const c of group)
    for (const name of spellings(c)) {
      const other = seen.get(foldSearchText(name)) ?? c.code;
      expect({ label, name, other }).toEqual({ label, name, other: c.code });
      seen.set(foldSearchText(name), c.code);
    }
}
const parentOf = new Map(WILAYAS.map(w => [w.code, w.carvedFrom ?? null]));

describe("resources/communes.json", () => {
  it("has Algeria's 1,541 communes, each with a unique four-digit code, in one of the 69 wilayas, every wilaya with some", () => {
    expect(communeList).toHaveLength(1541);
    const codes = communeList.map(c => c.code);
    expect(new Set(codes).size).toBe(1541);
    for (const code of codes) expect(code).toMatch(/^[0-9]{4}$/);
    const wilayas = new Set(WILAYAS.map(w => w.code));
    expect(communeList.filter(c => !wilayas.has(c.wilaya))).toEqual([]);
    expect(WILAYAS.filter(w => communesOf(w.code).length === 0).map(w => w.code)).toEqual([]);
    // Algiers has 57 communes, Tizi Ouzou 67 (the most), Bou Saâda 23.
    expect([communesOf("16").length, communesOf("15").length, communesOf("68").length]).toEqual([57, 67, 23]);
  });

  it("names every commune in both scripts, trimmed, with the fields it promises and no other", () => {
    for (const c of communeList) {
      const keys = Object.keys(c).filter(k => k !== "aliases");
      expect({ code: c.code, keys: keys.sort() }).toEqual({ code: c.code, keys: ["code", "name", "nameAr", "postalCode", "wilaya"] });
      expect({ code: c.code, name: c.name.trim() }).toEqual({ code: c.code, name: c.name });
      expect(c.name).toMatch(/^[A-Za-zÀ-ÿ'’ -]+$/);
      expect({ code: c.code, nameAr: c.nameAr }).toEqual({ code: c.code, nameAr: expect.stringMatching(/^[\u0621-\u064a ]+$/) });
    }
  });

  it("has unique names within each wilaya, in every spelling, as the search folds them", () => {
    for (const w of WILAYAS) expectOneCommunePerSpelling(w.code, communesOf(w.code));
  });

  it.each(Object.entries(COMMUNES_OF_2026))("wilaya %s has its communes, and none is left under its parent", (wilaya, names) => {
    const parent = parentOf.get(wilaya)!;
    expect(parent).toMatch(/^[0-9]{2}$/);
    const own = communesOf(wilaya);
    const found = names.map(name => own.filter(c => spellings(c).some(s => foldSearchText(s) === foldSearchText(name))).map(c => c.code));
    // Each name of the list is exactly one commune of the new wilaya, and together they are all of them.
    expect(found.filter(codes => codes.length !== 1).length).toBe(0);
    expect(new Set(found.flat()).size).toBe(own.length);
    expect(own).toHaveLength(names.length);
    // None of them still under the parent: no commune of the parent bears one of their names.
    const parentNames = new Set(communesOf(parent).flatMap(spellings).map(foldSearchText));
    expect(own.flatMap(spellings).filter(name => parentNames.has(foldSearchText(name)))).toEqual([]);
    // Their ONS codes (2021) still carry the parent's number: they were the parent's communes.
    for (const c of own) expect({ code: c.code, prefix: c.code.slice(0, 2) }).toEqual({ code: c.code, prefix: parent });
  });

  it("names the chefs-lieux of 2026 as the decree names their wilayas, with the dataset's spelling kept as an alias", () => {
    expect(findCommune("2820")).toMatchObject({ name: "Bou Saâda", nameAr: "بوسعادة", wilaya: "68", postalCode: "28001" });
    expect(findCommune("1731")).toMatchObject({ name: "Aïn Ouessara", wilaya: "65", aliases: ["Aïn Oussera"] });
    expect(findCommune("3207")).toMatchObject({ name: "El Abiodh Sidi Cheikh", aliases: ["Labiodh Sidi Cheikh"] });
  });

  it("keeps each ONS code's wilaya number, but for the communes of 2026 which keep their parent's", () => {
    for (const c of COMMUNES) {
      const prefix = c.code.slice(0, 2);
      expect({ code: c.code, ok: prefix === c.wilaya || prefix === parentOf.get(c.wilaya) }).toEqual({ code: c.code, ok: true });
    }
  });

  it("has plausible postal codes: five digits starting with the wilaya's number (the parent's, for 2026), a few unknown", () => {
    for (const c of COMMUNES) {
      if (c.postalCode === null) continue;
      expect({ code: c.code, postalCode: c.postalCode }).toEqual({ code: c.code, postalCode: expect.stringMatching(/^[0-9]{5}$/) });
      const prefix = c.postalCode.slice(0, 2);
      expect({ code: c.code, ok: prefix === c.wilaya || prefix === parentOf.get(c.wilaya) }).toEqual({ code: c.code, ok: true });
    }
    expect(COMMUNES.filter(c => c.postalCode === null).map(c => c.code)).toEqual(WITHOUT_POSTAL_CODE);
  });

  it("never lets two communes of a parent and the wilayas carved from it share a spelling (the migration of 2026 matches by name)", () => {
    for (const parent of new Set([...parentOf.values()].filter(p => p !== null)))
      expectOneCommunePerSpelling(
        parent,
        COMMUNES.filter(c => c.wilaya === parent || parentOf.get(c.wilaya) === parent)
      );
  });
});

describe("the commune lookups", () => {
  it("find a commune by its code and name it in the reader's script", () => {
    expect(communeName("2820", "fr")).toBe("Bou Saâda");
    expect(communeName("2820", "ar")).toBe("بوسعادة");
    expect(communeName("9999", "fr")).toBeNull();
    expect(communeName(null, "fr")).toBeNull();
    // Three Larbaa: the code tells them apart.
    expect([findCommune("0561")?.wilaya, findCommune("0921")?.wilaya, findCommune("3816")?.wilaya]).toEqual(["05", "09", "38"]);
  });

  it("the Joi rule takes a commune's four digits and names the field otherwise", () => {
    expect(communeCodeSchema().validate("2820").value).toBe("2820");
    for (const bad of ["282", "28200", "9999", "bou saada", " 2820"]) {
      const { error } = communeCodeSchema().label("commune").validate(bad);
      expect({ bad, message: error?.message }).toEqual({
        bad,
        message: '"commune" must be the four-digit ONS code of a commune (2820 for Bou Saâda)'
      });
    }
  });
});
