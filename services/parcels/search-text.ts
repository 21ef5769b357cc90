/**
 * Folding of names for search, so that "setif" finds "Sétif", "bordj bou arreridj" finds
 * "Bordj Bou Arréridj" and "اولاد جلال" finds "أولاد جلال". Migration
 * parcels/004_relay_points_directory.sql computes the same fold in SQL (generated columns
 * `city_key`, `city_ar_key`, `search_key`), with these very tables: keep both in step
 * (test/integration/relay-points-directory.test.ts compares them on both engines).
 *
 * 1. `translate(text, FOLD_FROM, FOLD_TO)`: accented Latin letters to plain lower case, the
 *    variants of alif, taa marbuta, alif maqsura and hamza seats to their base letter,
 *    Arabic-Indic digits to 0-9; the characters past the end of FOLD_TO (tatweel) are dropped.
 * 2. lower case.
 * 3. drop everything but a-z, 0-9 and the Arabic letters ء to ي (spaces, punctuation, vowel marks).
 */
export const FOLD_FROM = "àâäáãçéèêëîïíìôöóòõûüùúÿñÀÂÄÁÃÇÉÈÊËÎÏÍÌÔÖÓÒÕÛÜÙÚŸÑأإآٱةىؤئ٠١٢٣٤٥٦٧٨٩ـ";
export const FOLD_TO = "aaaaaceeeeiiiiooooouuuuynaaaaaceeeeiiiiooooouuuuynااااهيوي0123456789";
const KEEP = /[^a-z0-9\u0621-\u064a]+/g;

const TABLE = new Map<string, string>([...FOLD_FROM].map((char, i) => [char, [...FOLD_TO][i] ?? ""]));

export function foldSearchText(text: string): string {
  let translated = "";
  for (const char of text) translated += TABLE.get(char) ?? char;
  return translated.toLowerCase().replace(KEEP, "");
}
