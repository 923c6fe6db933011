#!/usr/bin/env bash
# Where the privacy scan's time goes on this CPU (issue 4: >= 200 MB/s on one
# core): build/bin/pii_profile samples the address find_pii() runs at every
# 250 µs while it scans the prompts of pii_scan_bench's
# full_scan_with_tagger/prompts (../shared/data, read in place) with a tagger
# trained on the labelled dev rows; this names each sample's function from
# the binary's symbols. Unlike instruction counts (pii_instructions.sh), the
# shares include what cache misses and mispredicted branches cost, and the
# AVX-512 paths run where the CPU has them. Pinned to core $BENCH_CPU (0 when
# unset); PII_PROFILE_ROUNDS scans while sampling (40).
# Writes bench/results/pii_profile.{json,md}. Takes about a minute.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
[[ -x "$bin/pii_profile" ]] || { echo "[bench] $bin/pii_profile is missing: cmake --build build --target pii_profile" >&2; exit 1; }
pii_dev_inputs

samples="$work/pii-profile.samples"
echo "[bench] sampling find_pii over $(wc -l <"$pii_prompts") prompts" >&2
run=$(taskset -c "${BENCH_CPU:-0}" "$bin/pii_profile" --data "$pii_prompts" --tagger "$pii_tagger" --out "$samples" \
  --rounds "${PII_PROFILE_ROUNDS:-40}")
nm -C --defined-only -S "$bin/pii_profile" >"$work/pii-profile.symbols"

node - "$samples" "$work/pii-profile.symbols" "$run" "$results" <<'JS'
const fs = require("fs");
const [samplesPath, symbolsPath, runJson, resultsDir] = process.argv.slice(2);
const run = JSON.parse(runJson);
// nm -S lines: "ADDRESS SIZE TYPE NAME"; functions only (text symbols).
const symbols = [];
for (const line of fs.readFileSync(symbolsPath, "utf8").split("\n")) {
  const m = line.match(/^([0-9a-f]+) ([0-9a-f]+) [tTwW] (.*)$/);
  if (m) symbols.push({ start: BigInt("0x" + m[1]), end: BigInt("0x" + m[1]) + BigInt("0x" + m[2]), name: m[3] });
}
symbols.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
function nameOf(address) {
  let lo = 0, hi = symbols.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (symbols[mid].start <= address) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
  }
  if (found < 0 || address >= symbols[found].end) return "(outside the binary's functions: libc, the kernel)";
  // "void tiergate::x::(anonymous namespace)::f<8ul>(args) const" -> "tiergate::x::f<8ul>"
  return symbols[found].name.replace(/\(anonymous namespace\)::/g, "").replace(/\(.*$/, "").replace(/^\S+ (?=tiergate::)/, "");
}
const counts = new Map();
let total = 0;
for (const line of fs.readFileSync(samplesPath, "utf8").split("\n")) {
  if (!line) continue;
  const name = nameOf(BigInt("0x" + line));
  counts.set(name, (counts.get(name) || 0) + 1);
  total++;
}
if (total === 0) throw new Error("no samples: the timer sent no signal");
const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name, n]) => ({ name, samples: n, share: n / total }));
const out = { date: new Date().toISOString(), mb_per_s: run.mb_per_s, samples: total, seconds: run.seconds, top_functions_self: top };
fs.writeFileSync(`${resultsDir}/pii_profile.json`, JSON.stringify(out, null, 2) + "\n");
const md = [
  "# Privacy scan: where the time goes",
  "",
  `${out.date}, \`bench/pii_profile.sh\`: ${total.toLocaleString("en-US")} samples, one every 250 µs, of the ` +
    `address find_pii() ran at while it scanned the dev prompts (as pii_scan_bench's full_scan_with_tagger/prompts) ` +
    `for ${run.seconds.toFixed(1)} s at ${run.mb_per_s.toFixed(0)} MB/s (the sampling itself slows it a little). ` +
    "A function's share is its own time, its callees' not, inlined code counted where it was inlined. Against " +
    "bench/results/pii_instructions.md: a function with a larger share of time than of instructions waits (for " +
    "memory, or after mispredicted branches).",
  "",
  "| function | samples | share |",
  "|---|---:|---:|",
  ...top.map((f) => `| \`${f.name}\` | ${f.samples} | ${(100 * f.share).toFixed(1)}% |`),
  "",
];
fs.writeFileSync(`${resultsDir}/pii_profile.md`, md.join("\n"));
console.log(md.join("\n"));
JS
