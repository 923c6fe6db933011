#!/usr/bin/env bash
# Lists of people and of addresses (issue 4: no labelled value may reach the
# upstream; a pasted roster or mailing list is many at once): how many of
# their names and streets the whole scan covers, as written and in small
# letters. The lists are generated here from the word lists of
# scripts/setup.sh (third_party/gazetteers: first names, surnames), one
# format per text: names one per line, numbered, bulleted, under a
# heading, in a table's rows with an age after a tab, as CSV, as a
# Markdown table, as a JSON array, with an e-mail address; letters' name
# and address blocks with blank lines between; addresses alone one after
# the other, with and without blank lines. Scanned with `tiergate pii scan`
# and a tagger trained on the labelled dev rows (../shared/data, read in
# place; skipped when absent). Writes bench/results/pii_lists.{json,md}.
# Takes about 10 seconds.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
pii_dev_inputs
gazetteers="$root/third_party/gazetteers"

lists="$work/pii-lists.jsonl"
node - "$gazetteers" "$lists" <<'JS'
const fs = require("fs");
const [dir, out] = process.argv.slice(2);
const words = (file, re) => fs.readFileSync(`${dir}/${file}`, "utf8").split("\n").filter((w) => re.test(w));
const first = words("first_name.txt", /^[A-Z][a-z]{2,8}$/);
const last = words("last_name.txt", /^[A-Z][a-z]{2,10}$/);
let seed = 7;  // a fixed linear congruential sequence: the same lists every run
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
const person = () => `${first[next() % first.length]} ${last[next() % last.length]}`;
const cities = ["Springfield, IL", "Dayton, OH", "Austin, TX", "Salem, OR", "Fresno, CA", "Tampa, FL", "Boise, ID"];
const street = () => `${next() % 900 + 10} ${last[next() % last.length]} Street`;
const city = () => `${cities[next() % cities.length]} ${next() % 90000 + 10000}`;
const rows = [];
// list(format, n, line): a text of n lines made by line(k), and the values
// (names, streets, postcodes) it holds.
const list = (format, n, head, line, tail = "") => {
  const values = [];
  let text = head;
  for (let k = 0; k < n; ++k) text += line(k, values);
  rows.push({ format, text: text + tail, values });
};
const named = (values) => { const p = person(); values.push(p); return p; };
list("one per line", 300, "", (k, v) => `${named(v)}\n`);
list("numbered", 300, "", (k, v) => `${k + 1}. ${named(v)}\n`);
list("bulleted", 300, "", (k, v) => `- ${named(v)}\n`);
list("under a heading", 300, "Attendees:\n", (k, v) => `${named(v)}\n`);
list("a table's rows, an age after a tab", 300, "", (k, v) => `${named(v)}\t${next() % 60 + 20}\n`);
list("CSV", 300, "name,age\n", (k, v) => `${named(v)},${next() % 60 + 20}\n`);
list("Markdown table", 300, "| Name | Age |\n|---|---|\n", (k, v) => `| ${named(v)} | ${next() % 60 + 20} |\n`);
list("JSON array", 300, "[", (k, v) => `${k ? ", " : ""}"${named(v)}"`, "]");
list("with an e-mail address", 300, "", (k, v) => {
  const p = named(v);
  return `${p} <${p.toLowerCase().replace(" ", ".")}@example.com>\n`;
});
const address = (v) => {
  const s = street(), c = city();
  v.push(s, c.slice(-5));
  return `${s}\n${c}`;
};
list("letters: name, street, city; blank lines between", 60, "", (k, v) => `${named(v)}\n${address(v)}\n\n`);
list("addresses, blank lines between", 60, "", (k, v) => `${address(v)}\n\n`);
list("addresses one after the other", 60, "", (k, v) => `${address(v)}\n`);
const lines = [];
for (const r of rows) {
  lines.push(JSON.stringify({ text: r.text, format: r.format, values: r.values, small_letters: false }));
  lines.push(JSON.stringify({ text: r.text.toLowerCase(), format: r.format, values: r.values.map((v) => v.toLowerCase()), small_letters: true }));
}
fs.writeFileSync(out, lines.join("\n") + "\n");
JS

echo "[bench] scanning $(wc -l <"$lists") lists" >&2
"$bin/tiergate" pii scan --data "$lists" -o "$work/pii-lists.spans.jsonl" --tagger "$pii_tagger" >/dev/null

node - "$lists" "$work/pii-lists.spans.jsonl" "$results" <<'JS'
const fs = require("fs");
const [listsFile, spansFile, resultsDir] = process.argv.slice(2);
const rows = fs.readFileSync(listsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const spans = fs.readFileSync(spansFile, "utf8").trim().split("\n").map((l) => JSON.parse(l).spans);
// Offsets of `pii scan` count code points; the lists are ASCII, so they are
// the string's indices.
const results = rows.map((row, i) => {
  let at = 0, covered = 0, asPerson = 0, names = 0;
  for (const value of row.values) {
    const begin = row.text.indexOf(value, at);
    at = begin + value.length;
    const end = at;
    const person = /[a-z]+ [a-z]+$/i.test(value) && !/street$/i.test(value);
    names += person ? 1 : 0;
    // Covered: every character of it but blanks inside some span (what
    // redaction hides, however the spans cut it: "710" | "Nikolaus Street").
    let hidden = true;
    for (let c = begin; c < end && hidden; ++c) {
      hidden = /\s/.test(row.text[c]) || spans[i].some((s) => s.start <= c && s.end > c);
    }
    if (hidden) covered++;
    if (person && spans[i].some((s) => s.type === "PERSON" && s.start <= begin && s.end >= end)) asPerson++;
  }
  return { format: row.format, small_letters: row.small_letters, values: row.values.length, covered, names, as_person: asPerson };
});
const out = { date: new Date().toISOString(), lists: results };
fs.writeFileSync(`${resultsDir}/pii_lists.json`, JSON.stringify(out, null, 2) + "\n");
const md = [
  "# Privacy scan: lists of people and of addresses",
  "",
  `${out.date}, \`bench/pii_lists.sh\`: lists generated from the word lists of scripts/setup.sh (first names, ` +
    "surnames; streets named after surnames, US cities and postcodes), one format per text, scanned whole by " +
    "`tiergate pii scan` with a tagger trained on the labelled dev rows. \"covered\": values (names; streets and " +
    "postcodes) whose characters all lie inside spans of any type, what redaction hides; \"as PERSON\": names " +
    "inside one PERSON span.",
  "",
  "| list | values | covered | names | as PERSON | in small letters: covered | as PERSON |",
  "|---|---:|---:|---:|---:|---:|---:|",
];
for (let k = 0; k < results.length; k += 2) {
  const a = results[k], b = results[k + 1];
  md.push(`| ${a.format} | ${a.values} | ${a.covered} | ${a.names} | ${a.as_person} | ${b.covered} | ${b.as_person} |`);
}
fs.writeFileSync(`${resultsDir}/pii_lists.md`, md.join("\n") + "\n");
console.log(md.join("\n"));
JS
