#!/usr/bin/env bash
# Gateway overhead: the same streamed request sent straight to llama-server and
# through tiergate in front of it (cloud tier), interleaved in one run.
# Writes bench/results/gateway_overhead.{json,md}.
#
# The upstream stands in for a cloud provider, which runs on other machines:
# it gets its own CPUs (the upper half, pinned with taskset), and tiergate and
# the client share the rest. Without that, on a small machine the upstream's
# compute threads and the gateway preempt each other and the measurement is
# of the scheduler, not of the gateway.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#
# The model: llama-server streams its 16 tokens in about 20 ms here, a token a
# millisecond or so, faster than cloud providers stream, so the gateway relays
# at a high rate. A bigger model only widens the upstream's own spread: its p99
# moves by milliseconds from run to run and hides the sub-millisecond
# difference this measures.
n="${BENCH_REQUESTS:-4000}" conc="${BENCH_CONCURRENCY:-4}" max_tokens="${BENCH_MAX_TOKENS:-16}"
layers="${BENCH_LAYERS:-2}" embd="${BENCH_EMBD:-128}"
model=$(bench_model "overhead-L${layers}-E${embd}" "$layers" "$embd")
cpus=$(nproc)
if (( cpus >= 2 )) && command -v taskset >/dev/null; then
  upstream_cpus="$(( cpus / 2 ))-$(( cpus - 1 ))" gateway_cpus="0-$(( cpus / 2 - 1 ))"
  upstream_threads=$(( cpus - cpus / 2 ))
  taskset -cp "$upstream_cpus" $$ >/dev/null
else
  upstream_cpus="all" gateway_cpus="all" upstream_threads=$cpus
fi
start_llama_server "$model" bench-model -t "$upstream_threads"
upstream=$tg_url
[[ $gateway_cpus == all ]] || taskset -cp "$gateway_cpus" $$ >/dev/null
cat >"$work/overhead.yaml" <<YAML
listen: 127.0.0.1:0
cloud:
  - name: upstream
    base_url: $upstream/v1
    models: [bench-model]
YAML
start_tiergate "$work/overhead.yaml"
gateway=$tg_url
tiergate_pid=${tg_pids[-1]}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # utime + stime
echo "[bench] $n streamed requests each, concurrency $conc, max_tokens $max_tokens: direct $upstream (CPUs $upstream_cpus) vs tiergate $gateway (CPUs $gateway_cpus)" >&2
ticks_before=$(cpu_ticks "$tiergate_pid")
"$bin/stream_latency" --a "$upstream/v1" --b "$gateway/v1" --model bench-model --requests "$n" \
  --concurrency "$conc" --max-tokens "$max_tokens" >"$work/overhead.json"
tiergate_cpu_s=$(awk -v t="$(( $(cpu_ticks "$tiergate_pid") - ticks_before ))" -v hz="$(getconf CLK_TCK)" 'BEGIN {print t / hz}')
node - "$work/overhead.json" "$results" "$n" "$conc" "$max_tokens" "$(basename "$model")" \
  "$upstream_cpus" "$gateway_cpus" "$tiergate_cpu_s" <<'JS'
const fs = require("fs");
const [file, resultsDir, n, conc, maxTokens, model, upstreamCpus, gatewayCpus, cpuS] = process.argv.slice(2);
const r = JSON.parse(fs.readFileSync(file, "utf8"));
const out = {
  date: new Date().toISOString(), model, requests_each: Number(n), concurrency: Number(conc), max_tokens: Number(maxTokens),
  direct: r.a, through_tiergate: r.b,
  added_ms: { p50: r.b.p50_ms - r.a.p50_ms, p99: r.b.p99_ms - r.a.p99_ms, p99_interval_95: r.added_p99_interval_ms,
              paired_median: r.paired_diff_ms.p50, paired_mean: r.paired_diff_ms.mean },
  rps_ratio: r.b.rps / r.a.rps, target: "added p99 < 1 ms",
  upstream_cpus: upstreamCpus, gateway_and_client_cpus: gatewayCpus,
  tiergate_cpu_ms_per_request: (Number(cpuS) * 1000) / r.requests_through_b,
};
fs.writeFileSync(`${resultsDir}/gateway_overhead.json`, JSON.stringify(out, null, 2) + "\n");
const md = `# Gateway overhead: llama-server direct vs through tiergate\n\n` +
  `${out.date}, model ${model}, ${n} streamed requests per path (max_tokens ${maxTokens}).\n\n` +
  `| | direct | through tiergate | added |\n|---|---:|---:|---:|\n` +
  `| p50 latency ms | ${r.a.p50_ms.toFixed(2)} | ${r.b.p50_ms.toFixed(2)} | ${out.added_ms.p50.toFixed(2)} |\n` +
  `| p99 latency ms | ${r.a.p99_ms.toFixed(2)} | ${r.b.p99_ms.toFixed(2)} | ${out.added_ms.p99.toFixed(2)} |\n` +
  `| added p99, 95% bootstrap interval ms | | | ${r.added_p99_interval_ms[0].toFixed(2)} to ${r.added_p99_interval_ms[1].toFixed(2)} |\n` +
  `| median of per-pair differences ms | | | ${r.paired_diff_ms.p50.toFixed(2)} |\n` +
  `| requests/s (${conc} concurrent clients) | ${r.a.rps.toFixed(1)} | ${r.b.rps.toFixed(1)} | ratio ${out.rps_ratio.toFixed(3)} |\n` +
  `| tiergate CPU time per request ms | | ${out.tiergate_cpu_ms_per_request.toFixed(3)} | |\n\n` +
  `Requests alternate between the two paths one by one (order flipped every pair). ` +
  `llama-server ran on CPUs ${upstreamCpus}, tiergate and the client on CPUs ${gatewayCpus}. Target: added p99 < 1 ms.\n`;
fs.writeFileSync(`${resultsDir}/gateway_overhead.md`, md);
console.log(md);
JS
