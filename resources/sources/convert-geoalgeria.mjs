// One-off conversion (issue 47): writes resources/wilayas.json (69 wilayas) and resources/communes.json
// (1,541 communes) from the MIT-licensed yasserstudio/geoalgeria dataset, with the corrections listed
// in resources/README.md, and prints the communes of the eleven 2026 wilayas as the VALUES rows of
// migration parcels/027. The committed JSON files are ours; this script only says how they were made.
//
//   node resources/sources/convert-geoalgeria.mjs <geoalgeria checkout>/packages/dataset/data [--migration-values]
//
// It reads csv/wilayas.csv, csv/communes.csv and communes_new_wilayas.csv, and keeps wilayas 01-58 of
// the current resources/wilayas.json as they are (names and chef-lieu positions the product already used).
import fs from "node:fs";
import path from "node:path";

const RESOURCES = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const [dataDir, ...flags] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write("usage: node resources/sources/convert-geoalgeria.mjs <geoalgeria>/packages/dataset/data [--migration-values]\n");
  process.exit(2);
}

/** The eleven wilayas of law 26-06 (4 April 2026), named as presidential decree 26-206 names them, and the wilaya each was carved from. */
const NEW_WILAYAS = {
  59: { name: "Aflou", carvedFrom: "03" },
  60: { name: "Barika", carvedFrom: "05" },
  61: { name: "El Kantara", carvedFrom: "07" },
  62: { name: "Bir El Ater", carvedFrom: "12" },
  63: { name: "El Aricha", carvedFrom: "13" },
  64: { name: "Ksar Chellala", carvedFrom: "14" },
  65: { name: "Aïn Ouessara", carvedFrom: "17" },
  66: { name: "Messaad", carvedFrom: "17" },
  67: { name: "Ksar El Boukhari", carvedFrom: "26" },
  68: { name: "Bou Saâda", carvedFrom: "28" },
  69: { name: "El Abiodh Sidi Cheikh", carvedFrom: "32" }
};

/** The chef-lieu commune of each new wilaya (ONS code): it takes the wilaya's spelling. */
const CHEFS_LIEUX = { 59: 319, 60: 542, 61: 717, 62: 1202, 63: 1332, 64: 1429, 65: 1731, 66: 1717, 67: 2635, 68: 2820, 69: 3207 };

/** Names the dataset cut short or garbled (by ONS code). */
const NAME_FIXES = {
  419: { name: "El Fedjoudj Boughrara Saoudi" },
  1409: { name: "Zmalet El Emir Abdelkader" },
  2732: { nameAr: "الحسيان", aliases: ["بني ياحي", "Beni Yahi"] }
};

/** Rows of communes_new_wilayas.csv that name a commune of communes.csv differently in both scripts: csv name → list name. */
const SAME_COMMUNE = {
  "El Beidha": "Beidha",
  "Azil Abedelkader": "Abdelkader Azil",
  "M Doukal": "Amdoukal",
  Branis: "El Branès",
  "Ain Ouksir": "Aïn El Ksar",
  "M'fatha": "Meftaha",
  "Ouled Emaaraf": "Ouled Maaref",
  Arbaouat: "Arbaouet"
};
/** A spelling of the list that is another commune's name, not a variant: never an alias. */
const NOT_ALIASES = new Set(["Draa"]);

function readCsv(file) {
  const [header, ...lines] = fs.readFileSync(path.join(dataDir, file), "utf8").trim().split(/\r?\n/);
  const keys = header.split(",");
  return lines.map(line => {
    const cells = line.split(",");
    if (cells.length !== keys.length) throw new Error(`${file}: unexpected line ${line}`);
    return Object.fromEntries(keys.map((k, i) => [k, cells[i].trim()]));
  });
}

/** Loose fold for pairing names here (the product's fold is services/parcels/search-text.ts; the tests use it). */
function fold(text) {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[أإآٱ]/g, "ا")
    .replace(/ة/g, "ه")
    .replace(/ى/g, "ي")
    .replace(/ؤ/g, "و")
    .replace(/ئ/g, "ي")
    .replace(/[^a-z0-9\u0621-\u064a]+/g, "");
}

const noTatweel = text => text.replace(/\u0640/g, "");
const two = n => String(n).padStart(2, "0");
const round4 = n => Math.round(Number(n) * 1e4) / 1e4;

// --- wilayas ---------------------------------------------------------------------------------------

const current = JSON.parse(fs.readFileSync(path.join(RESOURCES, "wilayas.json"), "utf8")).filter(w => Number(w.code) <= 58);
if (current.length !== 58) throw new Error("resources/wilayas.json should hold wilayas 01-58");
const wilayas = [...current];
for (const row of readCsv("csv/wilayas.csv").filter(r => Number(r.code) >= 59)) {
  const decree = NEW_WILAYAS[row.code];
  const entry = {
    code: two(row.code),
    name: decree.name,
    nameAr: noTatweel(row.name_ar),
    latitude: round4(row.latitude),
    longitude: round4(row.longitude),
    carvedFrom: decree.carvedFrom
  };
  if (fold(row.name_fr) !== fold(decree.name)) entry.aliases = [row.name_fr];
  wilayas.push(entry);
}
if (wilayas.length !== 69) throw new Error(`expected 69 wilayas, got ${wilayas.length}`);
const wilayaByCode = new Map(wilayas.map(w => [w.code, w]));

// --- communes --------------------------------------------------------------------------------------

const listed = readCsv("communes_new_wilayas.csv");
const problems = [];
const communes = readCsv("csv/communes.csv").map(row => {
  const wilaya = two(row.wilaya_code);
  const ons = Number(row.code_commune);
  const commune = {
    code: String(ons).padStart(4, "0"),
    name: row.name_fr,
    nameAr: noTatweel(row.name_ar),
    wilaya,
    postalCode: row.postal_code === "" ? null : row.postal_code
  };
  const aliases = [];
  Object.assign(commune, NAME_FIXES[ons] ?? {});
  aliases.push(...(NAME_FIXES[ons]?.aliases ?? []));
  delete commune.aliases;

  const carvedFrom = wilayaByCode.get(wilaya).carvedFrom ?? null;
  if (carvedFrom) {
    if (CHEFS_LIEUX[Number(wilaya)] === ons) {
      aliases.push(commune.name);
      commune.name = wilayaByCode.get(wilaya).name;
    }
    const twin =
      listed.find(l => l.wilaya_code === String(Number(wilaya)) && fold(l.commune_name_fr) === fold(row.name_fr)) ??
      listed.find(l => l.wilaya_code === String(Number(wilaya)) && fold(l.commune_name_ar) === fold(row.name_ar)) ??
      listed.find(l => l.wilaya_code === String(Number(wilaya)) && l.commune_name_fr === SAME_COMMUNE[row.name_fr]);
    if (!twin) problems.push(`${wilaya} ${row.name_fr}: not in communes_new_wilayas.csv`);
    else {
      twin.matched = (twin.matched ?? 0) + 1;
      if (!NOT_ALIASES.has(twin.commune_name_fr)) aliases.push(twin.commune_name_fr);
      aliases.push(noTatweel(twin.commune_name_ar));
    }
  }

  // Algérie Poste codes start with the wilaya's number, or its parent's for a 2026 wilaya; any other is a homonym's.
  if (commune.postalCode !== null && ![wilaya, carvedFrom].includes(commune.postalCode.slice(0, 2))) {
    process.stderr.write(`postal code dropped: ${commune.code} ${commune.name} (${wilaya}) had ${commune.postalCode}\n`);
    commune.postalCode = null;
  }
  const kept = [];
  for (const alias of aliases) {
    const key = fold(alias);
    if (key !== fold(commune.name) && key !== fold(commune.nameAr) && !kept.some(k => fold(k) === key)) kept.push(alias);
  }
  if (kept.length > 0) commune.aliases = kept;
  return commune;
});
for (const l of listed)
  if (l.matched !== 1) problems.push(`communes_new_wilayas.csv ${l.wilaya_code} ${l.commune_name_fr}: matched ${l.matched ?? 0} times`);

// Unique within a wilaya, in every spelling: the migration and the back-office find a commune by name in its wilaya.
for (const w of wilayas) {
  const seen = new Map();
  for (const c of communes.filter(c => c.wilaya === w.code)) {
    for (const name of [c.name, c.nameAr, ...(c.aliases ?? [])]) {
      const other = seen.get(fold(name));
      if (other && other !== c.code) problems.push(`${w.code}: "${name}" names ${other} and ${c.code}`);
      seen.set(fold(name), c.code);
    }
  }
}
if (communes.length !== 1541) problems.push(`expected 1541 communes, got ${communes.length}`);
if (problems.length > 0) {
  process.stderr.write(`${problems.join("\n")}\n`);
  process.exit(1);
}

communes.sort((a, b) => a.wilaya.localeCompare(b.wilaya) || a.code.localeCompare(b.code));
const lines = items => `[\n${items.map(item => `  ${JSON.stringify(item).replace(/":/g, '": ').replace(/,"/g, ', "')}`).join(",\n")}\n]\n`;
fs.writeFileSync(
  path.join(RESOURCES, "wilayas.json"),
  lines(wilayas)
    .replace(/^ {2}\{/gm, "  { ")
    .replace(/\}(,?)$/gm, " }$1")
);
fs.writeFileSync(
  path.join(RESOURCES, "communes.json"),
  lines(communes)
    .replace(/^ {2}\{/gm, "  { ")
    .replace(/\}(,?)$/gm, " }$1")
);
process.stderr.write(`wrote ${wilayas.length} wilayas and ${communes.length} communes\n`);

if (flags.includes("--migration-values")) {
  const sql = s => `'${s.replace(/'/g, "''")}'`;
  const rows = [];
  for (const c of communes) {
    const parent = wilayaByCode.get(c.wilaya).carvedFrom;
    if (!parent) continue;
    for (const name of [c.name, c.nameAr, ...(c.aliases ?? [])])
      rows.push(`    (${sql(parent)}, ${sql(c.wilaya)}, ${sql(c.code)}, ${sql(name)})`);
  }
  process.stdout.write(`${rows.join(",\n")}\n`);
}
