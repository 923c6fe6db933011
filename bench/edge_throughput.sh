#!/usr/bin/env bash
# Edge prefill and decode tokens/s through the gateway against llama.cpp's
# llama-bench on the same model file, threads and lengths, in one run.
# Writes bench/results/edge_throughput.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
layers="${BENCH_LAYERS:-12}" embd="${BENCH_EMBD:-768}" n_prompt="${BENCH_PROMPT:-512}" n_gen="${BENCH_GEN:-128}"
reps="${BENCH_REPS:-3}"
model=$(bench_model "bench-L${layers}-E${embd}" "$layers" "$embd")
echo "[bench] model $(basename "$model") ($(du -m "$model" | cut -f1) MiB), threads $threads, pp$n_prompt tg$n_gen" >&2

echo "[bench] llama-bench" >&2
"$bin/llama-bench" -m "$model" -t "$threads" -p "$n_prompt" -n "$n_gen" -b 512 -ub 512 -r "$reps" -o json \
  >"$work/llama-bench.json" 2>"$work/llama-bench.log"

cat >"$work/edge-bench.yaml" <<YAML
listen: 127.0.0.1:0
edge:
  model: $model
  context: 2048
  parallel: 1
  threads: $threads
  batch: 512
YAML
start_tiergate "$work/edge-bench.yaml"
url=$tg_url
# The prompt is sized to give about n_prompt tokens with the llama-spm vocab;
# the measured prompt_tokens is what is reported.
words=$(( n_prompt * 10 / 37 ))
runs=()
for _ in $(seq 1 "$reps"); do
  runs+=("$(node "$root/bench/stream_client.mjs" throughput "$url/v1" edge "$words" "$n_gen")")
done
printf '%s\n' "${runs[@]}" >"$work/gateway-runs.jsonl"

node - "$work/llama-bench.json" "$work/gateway-runs.jsonl" "$model" "$threads" "$results" <<'JS'
const fs = require("fs");
const [benchFile, runsFile, model, threads, resultsDir] = process.argv.slice(2);
const bench = JSON.parse(fs.readFileSync(benchFile, "utf8"));
const pp = bench.find((r) => r.n_prompt > 0 && r.n_gen === 0);
const tg = bench.find((r) => r.n_gen > 0 && r.n_prompt === 0);
const runs = fs.readFileSync(runsFile, "utf8").trim().split("\n").map(JSON.parse);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const decode = median(runs.map((r) => r.decode_tps));
// Prefill rate: prompt tokens over time to first token, less one decode step
// (the first token needs one) and nothing else: HTTP and tokenization count against us.
const prefill = median(runs.map((r) => r.prompt_tokens / ((r.ttft_ms - 1000 / r.decode_tps) / 1000)));
const out = {
  date: new Date().toISOString(), model: model.split("/").pop(), threads: Number(threads),
  llama_bench: { prefill_tps: pp.avg_ts, prefill_tokens: pp.n_prompt, decode_tps: tg.avg_ts, decode_tokens: tg.n_gen },
  gateway: { prefill_tps: prefill, prompt_tokens: runs[0].prompt_tokens, decode_tps: decode, completion_tokens: runs[0].completion_tokens, runs },
  ratio: { prefill: prefill / pp.avg_ts, decode: decode / tg.avg_ts },
  target: ">= 0.95 of llama-bench",
};
fs.writeFileSync(`${resultsDir}/edge_throughput.json`, JSON.stringify(out, null, 2) + "\n");
const md = `# Edge throughput: gateway vs llama-bench\n\n` +
  `${out.date}, model ${out.model}, ${threads} threads, same file and batch size (512).\n\n` +
  `| | llama-bench | through tiergate | ratio |\n|---|---:|---:|---:|\n` +
  `| prefill tokens/s (pp${pp.n_prompt}; gateway prompt ${out.gateway.prompt_tokens} tokens) | ${pp.avg_ts.toFixed(1)} | ${prefill.toFixed(1)} | ${out.ratio.prefill.toFixed(3)} |\n` +
  `| decode tokens/s (tg${tg.n_gen}) | ${tg.avg_ts.toFixed(2)} | ${decode.toFixed(2)} | ${out.ratio.decode.toFixed(3)} |\n\n` +
  `Gateway figures: median of ${runs.length} streamed requests; decode from the time between the first and last streamed token, ` +
  `prefill from the time to the first token less one decode step. Target: ratio >= 0.95.\n`;
fs.writeFileSync(`${resultsDir}/edge_throughput.md`, md);
console.log(md);
JS
