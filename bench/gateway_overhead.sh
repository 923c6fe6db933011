#!/usr/bin/env bash
# Gateway overhead: the same streamed request sent straight to llama-server and
# through tiergate in front of it (cloud tier), interleaved in one run.
# Writes bench/results/gateway_overhead.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
n="${BENCH_REQUESTS:-1000}" conc="${BENCH_CONCURRENCY:-4}" max_tokens="${BENCH_MAX_TOKENS:-16}"
layers="${BENCH_LAYERS:-4}" embd="${BENCH_EMBD:-384}"
model=$(bench_model "overhead-L${layers}-E${embd}" "$layers" "$embd")
start_llama_server "$model" bench-model
upstream=$tg_url
cat >"$work/overhead.yaml" <<YAML
listen: 127.0.0.1:0
cloud:
  - name: upstream
    base_url: $upstream/v1
    models: [bench-model]
YAML
start_tiergate "$work/overhead.yaml"
gateway=$tg_url
echo "[bench] $n streamed requests each, concurrency $conc, max_tokens $max_tokens: direct $upstream vs tiergate $gateway" >&2
node "$root/bench/stream_client.mjs" latency "$upstream/v1" "$gateway/v1" bench-model "$n" "$conc" "$max_tokens" \
  >"$work/overhead.json"
node - "$work/overhead.json" "$results" "$n" "$conc" "$max_tokens" "$(basename "$model")" <<'JS'
const fs = require("fs");
const [file, resultsDir, n, conc, maxTokens, model] = process.argv.slice(2);
const r = JSON.parse(fs.readFileSync(file, "utf8"));
const out = {
  date: new Date().toISOString(), model, requests_each: Number(n), concurrency: Number(conc), max_tokens: Number(maxTokens),
  direct: r.a, through_tiergate: r.b,
  added_ms: { p50: r.b.p50_ms - r.a.p50_ms, p99: r.b.p99_ms - r.a.p99_ms, paired_median: r.paired_diff_ms.p50, paired_mean: r.paired_diff_ms.mean },
  rps_ratio: r.b.rps / r.a.rps, stale_keepalive_retries: r.stale_retries, target: "added p99 < 1 ms",
};
fs.writeFileSync(`${resultsDir}/gateway_overhead.json`, JSON.stringify(out, null, 2) + "\n");
const md = `# Gateway overhead: llama-server direct vs through tiergate\n\n` +
  `${out.date}, model ${model}, ${n} streamed requests per path (max_tokens ${maxTokens}).\n\n` +
  `| | direct | through tiergate | added |\n|---|---:|---:|---:|\n` +
  `| p50 latency ms | ${r.a.p50_ms.toFixed(2)} | ${r.b.p50_ms.toFixed(2)} | ${out.added_ms.p50.toFixed(2)} |\n` +
  `| p99 latency ms | ${r.a.p99_ms.toFixed(2)} | ${r.b.p99_ms.toFixed(2)} | ${out.added_ms.p99.toFixed(2)} |\n` +
  `| median of per-pair differences ms | | | ${r.paired_diff_ms.p50.toFixed(2)} |\n` +
  `| requests/s (${conc} concurrent clients) | ${r.a.rps.toFixed(1)} | ${r.b.rps.toFixed(1)} | ratio ${out.rps_ratio.toFixed(3)} |\n\n` +
  `Requests alternate between the two paths one by one (order flipped every pair). Target: added p99 < 1 ms.\n`;
fs.writeFileSync(`${resultsDir}/gateway_overhead.md`, md);
console.log(md);
JS
