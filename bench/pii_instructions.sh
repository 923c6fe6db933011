#!/usr/bin/env bash
# Instructions the privacy scan runs per byte of the dev prompts (issue 4:
# >= 200 MB/s on one core), counted by valgrind's callgrind: the one speed
# figure a shared VM's neighbours cannot move, so that a change worth 2% can
# be told from noise that moves wall time by 20% (docs/privacy.md). Runs
# `tiergate pii scan` over the same prompts as pii_scan_bench's
# full_scan_with_tagger/prompts (../shared/data, read in place; the prompts
# file is written under build/bench), with a tagger trained on the labelled
# dev rows and the word lists, and again without the tagger (the structured
# detectors alone); counts only inside find_pii. Writes
# bench/results/pii_instructions.{json,md}. Takes about 2 minutes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
pii_dev_inputs
prompts=$pii_prompts tagger=$pii_tagger
if ! command -v valgrind >/dev/null; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "[bench] valgrind is missing: install it (apt-get install valgrind) or run this as root" >&2
    exit 1
  fi
  echo "[bench] installing valgrind" >&2
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi

# count NAME [tiergate pii scan args]: find_pii's instructions, and the 12
# functions under it that run the most (inclusive), in $work/NAME.*.
count() {
  local name=$1
  shift
  echo "[bench] callgrind: $name" >&2
  valgrind --tool=callgrind --callgrind-out-file="$work/$name.callgrind" --toggle-collect='tiergate::find_pii*' \
    "$bin/tiergate" pii scan --data "$prompts" -o "$work/$name.spans.jsonl" "$@" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$work/$name.callgrind" >"$work/$name.annotate.txt" 2>/dev/null
}
count whole_scan --tagger "$tagger"
count structured_scan --no-tagger

node - "$prompts" "$work/whole_scan.annotate.txt" "$work/structured_scan.annotate.txt" "$results" <<'JS'
const fs = require("fs");
const [promptsPath, wholePath, structuredPath, resultsDir] = process.argv.slice(2);
const texts = fs.readFileSync(promptsPath, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l).text);
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0);
// callgrind_annotate's lines: "  520,319,790 (100.0%)  file:function [binary]".
function parse(path) {
  const rows = [];
  for (const line of fs.readFileSync(path, "utf8").split("\n")) {
    const m = line.match(/^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/);
    if (m) rows.push({ ir: Number(m[1].replace(/,/g, "")), name: m[2] });
  }
  const total = rows.find((r) => r.name.startsWith("PROGRAM TOTALS"));
  if (!total) throw new Error(`${path}: no PROGRAM TOTALS line`);
  const functions = rows
    .filter((r) => r.name.includes("tiergate::") && !/find_pii\(|run_scan|_Function_handler|main \[/.test(r.name))
    .map((r) => ({
      ir: r.ir,
      // "???:void tiergate::x::(anonymous namespace)::f<8ul>(args) const [binary]" -> "tiergate::x::f<8ul>"
      name: r.name.replace(/^[^:]*:/, "").replace(/ \[.*\]$/, "").replace(/\(anonymous namespace\)::/g, "")
        .replace(/\(.*$/, "").replace(/^\S+ (?=tiergate::)/, ""),
    }));
  return { ir: total.ir, functions };
}
const whole = parse(wholePath), structured = parse(structuredPath);
const top = [];
for (const f of whole.functions) {
  if (top.length === 12) break;
  if (!top.some((t) => t.name === f.name)) top.push(f);
}
const out = {
  date: new Date().toISOString(),
  prompts: texts.length,
  bytes,
  whole_scan: { instructions: whole.ir, per_byte: whole.ir / bytes },
  structured_scan: { instructions: structured.ir, per_byte: structured.ir / bytes },
  whole_over_structured: whole.ir / structured.ir,
  top_functions_inclusive: top.map((f) => ({ name: f.name, instructions: f.ir, share: f.ir / whole.ir })),
};
fs.writeFileSync(`${resultsDir}/pii_instructions.json`, JSON.stringify(out, null, 2) + "\n");
const md = [
  "# Privacy scan: instructions per byte",
  "",
  `${out.date}, \`valgrind --tool=callgrind\` over \`tiergate pii scan\` of the ${texts.length} dev prompts ` +
    `(${(bytes / 1e6).toFixed(2)} MB, the prompts of pii_scan_bench's full_scan_with_tagger/prompts), counting ` +
    "inside find_pii only: the whole scan with a tagger trained on the labelled dev rows and the word lists, and " +
    "the structured detectors alone. Instructions do not move with a shared machine's load as wall time does; " +
    "they are not time (a cache miss costs many cycles, a well predicted loop runs several instructions a cycle), " +
    "so a change is judged by both. valgrind runs the AVX2 paths where a CPU with AVX-512 takes those (tokenizing, " +
    "the structured detectors' byte classes): they count more instructions here than such a CPU runs.",
  "",
  "| scan | instructions | per byte |",
  "|---|---:|---:|",
  `| whole scan | ${whole.ir.toLocaleString("en-US")} | ${out.whole_scan.per_byte.toFixed(1)} |`,
  `| structured detectors alone | ${structured.ir.toLocaleString("en-US")} | ${out.structured_scan.per_byte.toFixed(1)} |`,
  "",
  `The whole scan runs ${out.whole_over_structured.toFixed(2)}× the structured detectors' instructions.`,
  "",
  "Where the whole scan's instructions go (inclusive: a function's callees count in it):",
  "",
  "| function | instructions | share |",
  "|---|---:|---:|",
  ...out.top_functions_inclusive.map(
    (f) => `| \`${f.name}\` | ${f.instructions.toLocaleString("en-US")} | ${(100 * f.share).toFixed(1)}% |`),
  "",
];
fs.writeFileSync(`${resultsDir}/pii_instructions.md`, md.join("\n"));
console.log(md.join("\n"));
JS
