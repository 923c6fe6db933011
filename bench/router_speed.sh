#!/usr/bin/env bash
# Speed of the routing decision (issue 3 targets: p99 <= 20 us for a 2 KB
# single-turn request, <= 200 us for a 32 KB conversation, on one core).
# Runs bench/router_decision_bench.cc (Google Benchmark) pinned to one CPU,
# with a router trained on the dev data when ../shared/data is there (else a
# synthetic artifact of the same shape). Writes bench/results/router_speed.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${TIERGATE_SHARED_DATA:-$root/../shared/data}"
artifact=""
prompts=""
if [[ -f "$data/routing/mmlu_dev.jsonl" ]]; then
  prompts="$data/routing/mmlu_dev.jsonl"
  artifact="$work/router-speed.json"
  echo "[bench] training a router on the dev data for realistic weights" >&2
  "$bin/tiergate" router train --cv 0 --out "$artifact" \
    --data "$data/routing/mmlu_dev.jsonl" "$data/routing/gsm8k_dev.jsonl" "$data/routing/routerbench_dev.jsonl" \
    --intent-data "$data/prompts/prompt_categories_dev.jsonl" >/dev/null
else
  echo "[bench] ../shared/data absent: a synthetic artifact of the same shape" >&2
fi
cpu=$(( $(nproc) - 1 ))
# Repetitions: on a shared machine one run's p99 moves with the neighbours'
# load, so each benchmark runs 5 times and the median run is reported, with
# the range.
repetitions="${BENCH_REPETITIONS:-5}"
# The optional embedding part's cost, with a real (tiny) trained model.
edge_model="$root/../shared/models/stories260K.gguf"
[[ -f "$edge_model" ]] || edge_model=""
TIERGATE_ROUTER_ARTIFACT="$artifact" TIERGATE_BENCH_PROMPTS="$prompts" TIERGATE_EDGE_MODEL="$edge_model" taskset -c "$cpu" "$bin/router_decision_bench" \
  --benchmark_repetitions="$repetitions" \
  --benchmark_format=json --benchmark_out="$work/router-speed-raw.json" --benchmark_out_format=json >/dev/null
node - "$work/router-speed-raw.json" "$results" "${artifact:-synthetic}" "$cpu" "${prompts:-synthetic text}" <<'JS'
const fs = require("fs");
const [raw, resultsDir, artifact, cpu, prompts] = process.argv.slice(2);
const r = JSON.parse(fs.readFileSync(raw, "utf8"));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const runs = {};
for (const b of r.benchmarks.filter((b) => b.run_type === "iteration" && !b.error_occurred)) {
  const name = b.name.replace(/\/min_time:.*/, "").replace(/\/repeats:.*/, "");
  (runs[name] ??= []).push(b);
}
const rows = Object.entries(runs).map(([name, bs]) => ({ name, repetitions: bs.length,
  iterations: median(bs.map((b) => b.iterations)), mean_us: median(bs.map((b) => b.real_time / 1000)),
  p50_us: median(bs.map((b) => b.p50_us)), p99_us: median(bs.map((b) => b.p99_us)),
  p99_min_us: Math.min(...bs.map((b) => b.p99_us)), p99_max_us: Math.max(...bs.map((b) => b.p99_us)),
  max_us: Math.max(...bs.map((b) => b.max_us)) }));
const target = { "BM_Decision/single_turn_2kb": 20, "BM_Decision/conversation_32kb": 200 };
const out = { date: new Date().toISOString(), artifact: artifact.split("/").pop(), prompts: prompts.split("/").pop(), cpu: Number(cpu),
              host: r.context.host_name, cpus: r.context.num_cpus, mhz: r.context.mhz_per_cpu, rows,
              targets_p99_us: target };
fs.writeFileSync(`${resultsDir}/router_speed.json`, JSON.stringify(out, null, 2) + "\n");
let md = `# Routing decision speed\n\n${out.date}, one core (CPU ${cpu} of ${out.cpus}, ${out.mhz} MHz), artifact ${out.artifact}, ` +
  `requests made of ${out.prompts}. Each iteration timed on its own; requests rotate over 64 different texts of the size ` +
  `named. Each benchmark runs ${rows[0]?.repetitions ?? 1} times: the median run's p50 and p99, and the range of p99 over the runs.\n\n` +
  `| benchmark | iterations | p50 us | p99 us | p99 range us | target p99 us |\n|---|---:|---:|---:|---:|---:|\n`;
for (const x of rows) {
  md += `| ${x.name} | ${x.iterations} | ${x.p50_us.toFixed(1)} | ${x.p99_us.toFixed(1)} | ` +
        `${x.p99_min_us.toFixed(1)}–${x.p99_max_us.toFixed(1)} | ${target[x.name] ?? ""} |\n`;
}
md += `\nBM_Decision = signals (features, intent, complexity) + scheduler with its trace; BM_SignalsOnly, BM_FeaturesOnly and BM_SchedulerOnly ` +
      `are its parts; BM_TraceJson renders the trace as the JSON the gateway returns (after the decision). ` +
      `BM_EdgeEmbedding is the optional embedding part's extra cost (off by default): the edge model's embedding of ` +
      `the task turn (at most 256 tokens, one thread), here with stories260K when ../shared has it.\n`;
fs.writeFileSync(`${resultsDir}/router_speed.md`, md);
console.log(md);
JS
