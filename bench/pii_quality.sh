#!/usr/bin/env bash
# Privacy detectors on the labelled PII dev data in ../shared/data (read in
# place, never copied): `tiergate pii eval` per type and overall, and the scan
# speed (bench/pii_scan_bench.cc, Google Benchmark, one core).
# Writes bench/results/pii_quality.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${TIERGATE_SHARED_DATA:-$root/../shared/data}/pii/presidio_generated_dev.jsonl"
[[ -f "$data" ]] || { echo "[bench] skipped: $data is absent (the shared dev data lives beside the repository)" >&2; exit 0; }
echo "[bench] tiergate pii eval on $(basename "$data")" >&2
"$bin/tiergate" pii eval --data "$data" >"$work/pii-eval.json"
cpu=$(( $(nproc) - 1 ))
echo "[bench] scan speed on CPU $cpu" >&2
taskset -c "$cpu" "$bin/pii_scan_bench" --benchmark_repetitions="${BENCH_REPETITIONS:-3}" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$work/pii-speed-raw.json" --benchmark_out_format=json >/dev/null
node - "$work/pii-eval.json" "$work/pii-speed-raw.json" "$results" "$(basename "$data")" <<'JS'
const fs = require("fs");
const [evalPath, speedPath, resultsDir, dataName] = process.argv.slice(2);
const ev = JSON.parse(fs.readFileSync(evalPath, "utf8"));
// Google Benchmark writes NaN for aggregates of counters that do not vary.
const speed = JSON.parse(fs.readFileSync(speedPath, "utf8").replace(/\bNaN\b/g, "null"));
const medians = speed.benchmarks.filter((b) => b.aggregate_name === "median")
  .map((b) => ({ name: b.run_name, mb_per_s: b.bytes_per_second / 1e6 }));
const structured = ["CREDIT_CARD", "US_SSN", "IBAN_CODE", "EMAIL_ADDRESS", "PHONE_NUMBER", "IP_ADDRESS"];
const out = { date: new Date().toISOString(), data: dataName, eval: ev, speed_median_mb_per_s: medians,
              targets: { structured_recall: 0.99, person_and_address_recall: 0.90, overall_precision: 0.85, scan_mb_per_s: 200 } };
fs.writeFileSync(`${resultsDir}/pii_quality.json`, JSON.stringify(out, null, 2) + "\n");
const f = (x) => (x === null || x === undefined ? "–" : x.toFixed(3));
let md = `# Privacy detectors\n\n${out.date}, \`tiergate pii eval --data ${dataName}\` (matching: same type, overlap at least ` +
  `half the longer span). Targets (issue 4): recall >= 0.99 for ${structured.join(", ")}; >= 0.90 for PERSON and ` +
  `STREET_ADDRESS; precision >= 0.85 overall.\n\n| type | gold | predicted | precision | recall | F2 |\n|---|---:|---:|---:|---:|---:|\n`;
for (const [t, c] of Object.entries(ev.types)) md += `| ${t} | ${c.gold} | ${c.predicted} | ${f(c.precision)} | ${f(c.recall)} | ${f(c.f2)} |\n`;
const o = ev.overall;
md += `| **overall** | ${o.gold} | ${o.predicted} | ${f(o.precision)} | ${f(o.recall)} | ${f(o.f2)} |\n\n`;
md += `Scan speed, one core (median of the repetitions):\n\n| input | MB/s |\n|---|---:|\n`;
for (const m of medians) md += `| ${m.name} | ${m.mb_per_s.toFixed(0)} |\n`;
fs.writeFileSync(`${resultsDir}/pii_quality.md`, md);
JS
cat "$results/pii_quality.md"
