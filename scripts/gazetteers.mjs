// Writes the word lists the PII tagger learns from (docs/privacy.md) out of
// the locale data of the @faker-js/faker npm package (MIT): one file per
// category, one entry per line, every locale together. With a DICTIONARY
// (one word per line, such as Debian's /usr/share/dict/american-english),
// its words written in lower case only (not names) join the everyday words,
// and its capitalised adjectives ("Bayesian") make a list of their own.
// Called by scripts/setup.sh; the lists are downloaded data, never committed.
//   node scripts/gazetteers.mjs PACKAGE_DIR OUT_DIR [DICTIONARY]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, outDir, dictionary] = process.argv.slice(2);
if (!packageDir || !outDir) {
  console.error("usage: node scripts/gazetteers.mjs PACKAGE_DIR OUT_DIR [DICTIONARY]");
  process.exit(2);
}
const { allLocales } = await import(pathToFileURL(path.join(packageDir, "dist", "index.js")).href);

// category -> where its entries are in a locale's definitions.
const sources = {
  first_name: (l) => [l.person?.first_name, l.person?.middle_name],
  last_name: (l) => [l.person?.last_name],
  name_prefix: (l) => [l.person?.prefix],
  city: (l) => [l.location?.city_name],
  country: (l) => [l.location?.country],
  state: (l) => [l.location?.state, l.location?.state_abbr],
  street_name: (l) => [l.location?.street_name],
  street_suffix: (l) => [l.location?.street_suffix],
  company_suffix: (l) => [l.company?.legal_entity_type, l.company?.suffix],
  job: (l) => [l.person?.job_type, l.person?.job_area, l.person?.job_descriptor],
  // Everyday English words: evidence that a capitalised word is not a name.
  common_word: (l) => (l === allLocales.en ? Object.values(l.word ?? {}) : []),
  // The DICTIONARY's capitalised adjectives and nouns of a doctrine
  // ("Bayesian", "Islamic", "Calvinism"); no locale holds any. The tagger
  // learns nothing from them (they are not features): a rule asks them.
  proper_adjective: () => [],
};
const properAdjective = /^[A-Z][a-z]+(ian|ean|ic|ical|ism|ist|istic|esque)$/;

// Strings anywhere in a value (lists, or lists keyed by sex); patterns such
// as "{{person.last_name}}" are templates, not entries.
function collect(value, into) {
  if (typeof value === "string") {
    if (!value.includes("{{") && value.trim() !== "") into.add(value.trim());
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, into);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) collect(v, into);
  }
}

fs.mkdirSync(outDir, { recursive: true });
for (const [category, where] of Object.entries(sources)) {
  const entries = new Set();
  for (const locale of Object.values(allLocales)) collect(where(locale), entries);
  if (category === "common_word" && dictionary) {
    for (const word of fs.readFileSync(dictionary, "utf8").split("\n")) {
      if (/^[a-z]+$/.test(word)) entries.add(word);
    }
  }
  if (category === "proper_adjective" && dictionary) {
    for (const word of fs.readFileSync(dictionary, "utf8").split("\n")) {
      if (properAdjective.test(word)) entries.add(word);
    }
  }
  fs.writeFileSync(path.join(outDir, `${category}.txt`), [...entries].sort().join("\n") + "\n");
  console.error(`[gazetteers] ${category}: ${entries.size} entries`);
}
