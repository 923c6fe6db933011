#!/usr/bin/env bash
# Privacy detectors on the labelled PII dev data in ../shared/data (read in
# place, never copied): 5-fold cross-validated precision/recall per type with
# the tagger trained on the other folds (`tiergate pii cv`), by row and by
# template (unseen sentence shapes), by template with the held-out rows in
# small letters (text without capitals) and in capitals throughout; what the same detectors find in
# the unlabelled dev prompts, as written and lower-cased (few of them hold
# personal data: most of what is found there is a false alarm or a public
# name, the cost of precision on everyday text); and the structured scan's speed
# (bench/pii_scan_bench.cc, Google Benchmark, one core).
# Writes bench/results/pii_quality.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${TIERGATE_SHARED_DATA:-$root/../shared/data}/pii/presidio_generated_dev.jsonl"
[[ -f "$data" ]] || { echo "[bench] skipped: $data is absent (the shared dev data lives beside the repository)" >&2; exit 0; }
# The tagger as docs/privacy.md trains it: with the word lists of
# scripts/setup.sh; by template also without them, to show what they add.
gazetteers="$root/third_party/gazetteers"
[[ -d "$gazetteers" ]] || { echo "[bench] $gazetteers is absent: run scripts/setup.sh" >&2; exit 1; }
echo "[bench] tiergate pii cv on $(basename "$data"): by row, then by template (with and without gazetteers, and held out in small letters and in capitals)" >&2
"$bin/tiergate" pii cv --data "$data" --folds 5 --gazetteers "$gazetteers" >"$work/pii-cv.json"
"$bin/tiergate" pii cv --data "$data" --folds 5 --by-template --gazetteers "$gazetteers" >"$work/pii-cv-template.json"
"$bin/tiergate" pii cv --data "$data" --folds 5 --by-template >"$work/pii-cv-template-bare.json"
"$bin/tiergate" pii cv --data "$data" --folds 5 --by-template --lower-case-held-out --gazetteers "$gazetteers" \
  >"$work/pii-cv-template-lower.json"
"$bin/tiergate" pii cv --data "$data" --folds 5 --by-template --upper-case-held-out --gazetteers "$gazetteers" \
  >"$work/pii-cv-template-upper.json"
# The prompts of the speed benchmark, as written and with their ASCII
# capitals in small letters, through a tagger trained on all the dev rows.
pii_dev_inputs
node -e 'const fs = require("fs"); const [from, to] = process.argv.slice(1);
  fs.writeFileSync(to, fs.readFileSync(from, "utf8").split("\n").filter((l) => l).map((l) =>
    JSON.stringify({ text: JSON.parse(l).text.replace(/[A-Z]/g, (c) => c.toLowerCase()) })).join("\n") + "\n");' \
  "$pii_prompts" "$work/pii-prompts-lower.jsonl"
"$bin/tiergate" pii scan --data "$pii_prompts" --out "$work/pii-prompts-spans.jsonl" --tagger "$pii_tagger" 2>/dev/null
"$bin/tiergate" pii scan --data "$work/pii-prompts-lower.jsonl" --out "$work/pii-prompts-lower-spans.jsonl" \
  --tagger "$pii_tagger" 2>/dev/null
cpu=$(( $(nproc) - 1 ))
echo "[bench] scan speed on CPU $cpu" >&2
# The fastest of 5 repetitions: on a shared machine other load only ever
# slows a run down, and it comes and goes in phases of seconds. The
# repetitions of all the benchmarks run in random order, so that the whole
# scan and the structured scan alone, whose ratio the results quote, meet
# the same phases.
taskset -c "$cpu" "$bin/pii_scan_bench" --benchmark_repetitions="${BENCH_REPETITIONS:-5}" \
  --benchmark_enable_random_interleaving=true --benchmark_format=json --benchmark_out="$work/pii-speed-raw.json" --benchmark_out_format=json >/dev/null
node - "$work/pii-cv.json" "$work/pii-cv-template.json" "$work/pii-cv-template-bare.json" "$work/pii-cv-template-lower.json" \
  "$work/pii-cv-template-upper.json" \
  "$work/pii-speed-raw.json" "$results" "$(basename "$data")" "$pii_prompts" "$work/pii-prompts-spans.jsonl" \
  "$work/pii-prompts-lower-spans.jsonl" <<'JS'
const fs = require("fs");
const [cvPath, templatePath, barePath, lowerPath, upperPath, speedPath, resultsDir, dataName, promptsPath,
       promptSpansPath, lowerSpansPath] = process.argv.slice(2);
const ev = JSON.parse(fs.readFileSync(cvPath, "utf8"));
const byTemplate = JSON.parse(fs.readFileSync(templatePath, "utf8"));
const bare = JSON.parse(fs.readFileSync(barePath, "utf8"));
const lower = JSON.parse(fs.readFileSync(lowerPath, "utf8"));
const upper = JSON.parse(fs.readFileSync(upperPath, "utf8"));
// Google Benchmark writes NaN for aggregates of counters that do not vary.
const speed = JSON.parse(fs.readFileSync(speedPath, "utf8").replace(/\bNaN\b/g, "null"));
// In the order the benchmarks are registered, whatever order they ran in.
const runs = speed.benchmarks.filter((x) => x.run_type === "iteration");
runs.sort((a, b) => a.family_index - b.family_index || a.per_family_instance_index - b.per_family_instance_index);
const fastest = {};
for (const b of runs) fastest[b.run_name] = Math.max(fastest[b.run_name] ?? 0, b.bytes_per_second / 1e6);
const speeds = Object.entries(fastest).map(([name, mb_per_s]) => ({ name, mb_per_s }));
// Detections per type in the unlabelled prompts, as written and lower-cased.
const countTypes = (path) => {
  const counts = {};
  for (const line of fs.readFileSync(path, "utf8").split("\n")) {
    if (!line) continue;
    for (const s of JSON.parse(line).spans) counts[s.type] = (counts[s.type] ?? 0) + 1;
  }
  return counts;
};
const promptLines = fs.readFileSync(promptsPath, "utf8").split("\n").filter((l) => l);
const promptMb = promptLines.reduce((n, l) => n + Buffer.byteLength(JSON.parse(l).text), 0) / 1e6;
const unlabelled = { prompts: promptLines.length, mb: promptMb, as_written: countTypes(promptSpansPath),
                     lower_cased: countTypes(lowerSpansPath) };
const structured = ["CREDIT_CARD", "US_SSN", "IBAN_CODE", "EMAIL_ADDRESS", "PHONE_NUMBER", "IP_ADDRESS"];
const out = { date: new Date().toISOString(), data: dataName, cv_by_row: ev, cv_by_template: byTemplate, cv_by_template_without_gazetteers: bare,
              cv_by_template_held_out_in_small_letters: lower, cv_by_template_held_out_in_capitals: upper,
              unlabelled_prompt_detections: unlabelled,
              speed_fastest_mb_per_s: speeds,
              targets: { structured_recall: 0.99, person_and_address_recall: 0.90, overall_precision: 0.85, scan_mb_per_s: 200 } };
fs.writeFileSync(`${resultsDir}/pii_quality.json`, JSON.stringify(out, null, 2) + "\n");
const f = (x) => (x === null || x === undefined ? "–" : x.toFixed(3));
let md = `# Privacy detectors\n\n${out.date}, \`tiergate pii cv --data ${dataName} --folds 5 --gazetteers third_party/gazetteers\`: ` +
  `the structured detectors and a tagger trained on the other four folds with the word lists of scripts/setup.sh (matching: same type, overlap at least half the longer span). "by row": ` +
  `folds of random rows; "by template": the rows of one sentence template in one fold, so every test sentence has a shape ` +
  `the tagger never saw (the held-out sets use other templates). Targets (issue 4): recall >= 0.99 for ` +
  `${structured.join(", ")}; >= 0.90 for PERSON and STREET_ADDRESS; precision >= 0.85 overall.\n\n` +
  `"covered": by template, the share of the labelled characters inside a detection of the same type / of any type ` +
  `(what redaction hides; a labelled address split into parts counts as found when one detection spans it). ` +
  `"no lists": by template, the tagger without the word lists. "small letters": by template, each held-out row scanned ` +
  `with its ASCII capitals in small letters (\`--lower-case-held-out\`; the tagger trained on the rows as labelled): ` +
  `text without capitals, which the issue asks the detectors to handle too. "capitals": the same with each held-out row ` +
  `in capitals throughout (\`--upper-case-held-out\`), which the tagger reads as text in small letters.\n\n` +
  `| type | gold | by row: precision | recall | F2 | by template: precision | recall | F2 | covered | covered, any type | ` +
  `no lists: precision | recall | small letters: precision | recall | capitals: precision | recall |\n` +
  `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n`;
const row = (name, c, u, b, l, up) => `| ${name} | ${c.gold} | ${f(c.precision)} | ${f(c.recall)} | ${f(c.f2)} | ` +
  `${f(u.precision)} | ${f(u.recall)} | ${f(u.f2)} | ${f(u.coverage)} | ${f(u.coverage_any_type)} | ${f(b.precision)} | ` +
  `${f(b.recall)} | ${f(l.precision)} | ${f(l.recall)} | ${f(up.precision)} | ${f(up.recall)} |\n`;
for (const [t, c] of Object.entries(ev.types)) {
  md += row(t, c, byTemplate.types[t] ?? {}, bare.types[t] ?? {}, lower.types[t] ?? {}, upper.types[t] ?? {});
}
md += row("**overall**", ev.overall, byTemplate.overall, bare.overall, lower.overall, upper.overall) + "\n";
// Tokens: the unit of presidio-research's evaluator, indifferent to how a
// value is cut into spans (pii_eval.h).
md += `Tokens (the unit presidio-research's evaluator scores): each token takes the type of the labelled span and of the ` +
  `detection over it, and counts as matched when they agree, however either side cuts a value into spans.\n\n` +
  `| type | gold tokens | by row: precision | recall | by template: precision | recall |\n|---|---:|---:|---:|---:|---:|\n`;
const tokenRow = (name, c, u) => `| ${name} | ${c.tokens.gold} | ${f(c.tokens.precision)} | ${f(c.tokens.recall)} | ` +
  `${f(u.tokens?.precision)} | ${f(u.tokens?.recall)} |\n`;
for (const [t, c] of Object.entries(ev.types)) if (c.tokens.gold > 0) md += tokenRow(t, c, byTemplate.types[t] ?? {});
md += tokenRow("**overall**", ev.overall, byTemplate.overall) + "\n";
const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
md += `Detections in the ${unlabelled.prompts.toLocaleString("en")} unlabelled dev prompts of the speed benchmark ` +
  `(${unlabelled.mb.toFixed(2)} MB: questions, code, data; few hold personal data, so most of these are false alarms or ` +
  `public names), with a tagger trained on all the dev rows, as written and with their ASCII capitals in small letters: ` +
  `what precision costs on everyday text.\n\n| type | as written | lower-cased |\n|---|---:|---:|\n`;
const promptTypes = [...new Set([...Object.keys(unlabelled.as_written), ...Object.keys(unlabelled.lower_cased)])].sort();
for (const t of promptTypes) md += `| ${t} | ${unlabelled.as_written[t] ?? 0} | ${unlabelled.lower_cased[t] ?? 0} |\n`;
md += `| **all** | ${total(unlabelled.as_written)} | ${total(unlabelled.lower_cased)} |\n\n`;
md += `Scan speed, one core (the fastest of the repetitions, run in random order): structured_scan rows are the structured detectors alone; ` +
  `full_scan_with_tagger adds a tagger trained on the dev rows and the merge, as the gateway scans.\n\n| input | MB/s |\n|---|---:|\n`;
for (const m of speeds) md += `| ${m.name} | ${m.mb_per_s.toFixed(0)} |\n`;
// The same prompts scanned both ways in this run: what the tagger costs.
// By the benchmark's name, before its "/min_time:..." ("full_scan_with_tagger/prompts" is not
// "full_scan_with_tagger/prompts_in_small_letters").
const speedOf = (name) => speeds.find((m) => m.name === name || m.name.startsWith(name + "/"));
const alone = speedOf("structured_scan/prompts"), whole = speedOf("full_scan_with_tagger/prompts");
if (alone && whole) {
  md += `\nOn the prompts, the whole scan takes ${(alone.mb_per_s / whole.mb_per_s).toFixed(2)}× the time of the structured ` +
        `detectors alone (same run).\n`;
}
const shortPrompts = speedOf("full_scan_with_tagger/short_prompts"), longPrompts = speedOf("full_scan_with_tagger/long_prompts");
if (shortPrompts && longPrompts) {
  md += `\nBy the prompt's size, the whole scan: ${shortPrompts.mb_per_s.toFixed(0)} MB/s on the prompts under 256 bytes, ` +
        `${longPrompts.mb_per_s.toFixed(0)} MB/s on those of 1 KiB or more (a short call pays the scan's cold start for few bytes).\n`;
}
const smallLetters = speedOf("full_scan_with_tagger/prompts_in_small_letters");
const capitals = speedOf("full_scan_with_tagger/prompts_in_capitals");
if (whole && smallLetters && capitals) {
  md += `\nThe same prompts with their ASCII capitals in small letters: ${smallLetters.mb_per_s.toFixed(0)} MB/s, in ` +
        `capitals throughout ${capitals.mb_per_s.toFixed(0)} MB/s, against ${whole.mb_per_s.toFixed(0)} as written ` +
        `(text without case: the tagger reads every word, where capitals let it step over most).\n`;
}
const every = speedOf("full_scan_with_tagger/conversations/every_message");
const viaCache = speedOf("full_scan_with_tagger/conversations/scan_cache");
if (every && viaCache) {
  md += `\nConversations of 8 turns, each turn a request that carries the conversation so far (the prompts in order): ` +
        `${every.mb_per_s.toFixed(0)} MB/s of request text with every message scanned in every request, ` +
        `${viaCache.mb_per_s.toFixed(0)} MB/s through the scan cache (privacy.scan_cache_mb: each message scanned once, ` +
        `found again by its keyed hash), ${(viaCache.mb_per_s / every.mb_per_s).toFixed(2)}× as fast.\n`;
}
fs.writeFileSync(`${resultsDir}/pii_quality.md`, md);
JS
cat "$results/pii_quality.md"
