#!/usr/bin/env bash
# Edge prefill and decode tokens/s through the gateway against llama.cpp's
# llama-bench on the same model file, threads and lengths, in one run.
# Writes bench/results/edge_throughput.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
layers="${BENCH_LAYERS:-12}" embd="${BENCH_EMBD:-768}" n_prompt="${BENCH_PROMPT:-512}" n_gen="${BENCH_GEN:-128}"
reps="${BENCH_ROUNDS:-15}"
model=$(bench_model "bench-L${layers}-E${embd}" "$layers" "$embd")
echo "[bench] model $(basename "$model") ($(du -m "$model" | cut -f1) MiB), threads $threads, pp$n_prompt tg$n_gen" >&2

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
# About n_prompt tokens of prompt with the llama-spm vocab (2.8 tokens a word);
# the measured prompt length is what llama-bench is then run with.
words=$(( n_prompt * 10 / 28 ))
# First request: learn the prompt's token count, and warm the page cache.
first=$(node "$root/bench/stream_client.mjs" throughput "$url/v1" edge "$words" "$n_gen")
prompt_tokens=$(node -e "console.log(JSON.parse(process.argv[1]).prompt_tokens)" "$first")

# Interleaved rounds, so that the machine's drift hits both sides alike: each
# round a prefill and a decode request through tiergate, then llama-bench with
# the same lengths (prefill of the prompt; decode at that depth, as the gateway
# decodes after its prompt). tiergate is idle while llama-bench runs.
echo "[bench] $reps rounds: tiergate, then llama-bench pp$prompt_tokens and tg$n_gen at depth $prompt_tokens" >&2
echo "[]" >"$work/llama-bench.json"
# Both are timed with curl, the thinnest client at hand (llama-bench has no
# client at all): prefill as the time to the first byte of a streamed
# max_tokens=1 request (tiergate sends its headers with the first token), decode
# from the first and last byte of a streamed n_gen-token request. Like
# llama-bench, which runs a warm-up pass before each measured one, every round
# sends an unmeasured request first.
: >"$work/gateway-prefill.jsonl"
: >"$work/gateway-runs.jsonl"
completion_tokens=$(node -e "console.log(JSON.parse(process.argv[1]).completion_tokens)" "$first")
body_for() {  # MAX_TOKENS
  node -e "console.log(JSON.stringify({model: 'edge', max_tokens: $1, stream: true, temperature: 0,
    messages: [{role: 'user', content: Array.from({length: $words}, (_, i) => 'word' + (i % 50)).join(' ')}]}))"
}
prefill_body=$(body_for 1)
decode_body=$(body_for "$n_gen")
timed() {  # BODY -> "first_byte_s last_byte_s"
  curl -s -o /dev/null -w '%{time_starttransfer} %{time_total}' "$url/v1/chat/completions" \
    -H 'Content-Type: application/json' -d "$1"
}
for round in $(seq 1 "$reps"); do
  timed "$prefill_body" >/dev/null
  read -r first_s _ <<<"$(timed "$prefill_body")"
  echo "{\"prompt_tokens\": $prompt_tokens, \"ttft_ms\": $(node -e "console.log($first_s * 1000)")}" \
    >>"$work/gateway-prefill.jsonl"
  read -r first_s last_s <<<"$(timed "$decode_body")"
  node -e "console.log(JSON.stringify({prompt_tokens: $prompt_tokens, completion_tokens: $completion_tokens,
    ttft_ms: $first_s * 1000, decode_tps: ($completion_tokens - 1) / ($last_s - $first_s)}))" >>"$work/gateway-runs.jsonl"
  "$bin/llama-bench" -m "$model" -t "$threads" -p "$prompt_tokens" -n 0 -b 512 -ub 512 -r 1 -o json \
    >"$work/llama-bench-pp.json" 2>"$work/llama-bench.log"
  "$bin/llama-bench" -m "$model" -t "$threads" -p 0 -n "$n_gen" -d "$prompt_tokens" -b 512 -ub 512 -r 1 -o json \
    >"$work/llama-bench-tg.json" 2>>"$work/llama-bench.log"
  node -e "const f=require('fs');const all=JSON.parse(f.readFileSync(process.argv[1]));
    for (const p of process.argv.slice(2)) all.push(...JSON.parse(f.readFileSync(p)));
    f.writeFileSync(process.argv[1], JSON.stringify(all))" \
    "$work/llama-bench.json" "$work/llama-bench-pp.json" "$work/llama-bench-tg.json"
  echo "[bench] round $round/$reps done" >&2
done

node - "$work/llama-bench.json" "$work/gateway-runs.jsonl" "$model" "$threads" "$results" "$work/gateway-prefill.jsonl" <<'JS'
const fs = require("fs");
const [benchFile, runsFile, model, threads, resultsDir, prefillFile] = process.argv.slice(2);
const bench = JSON.parse(fs.readFileSync(benchFile, "utf8"));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const ppRuns = bench.filter((r) => r.n_prompt > 0 && r.n_gen === 0);
const tgRuns = bench.filter((r) => r.n_gen > 0 && r.n_prompt === 0);  // at depth n_depth
const pp = { ...ppRuns[0], avg_ts: median(ppRuns.map((r) => r.avg_ts)) };
const tg = { ...tgRuns[0], avg_ts: median(tgRuns.map((r) => r.avg_ts)) };
const runs = fs.readFileSync(runsFile, "utf8").trim().split("\n").map(JSON.parse);
const decode = median(runs.map((r) => r.decode_tps));
// Prefill rate: prompt tokens over the time to the first (only) token: the
// prompt's logits give that token, and HTTP, templating and tokenization all
// count against the gateway.
const prefillRuns = fs.readFileSync(prefillFile, "utf8").trim().split("\n").map(JSON.parse);
const prefillTps = prefillRuns.map((r) => r.prompt_tokens / (r.ttft_ms / 1000));
const prefill = median(prefillTps);
// This machine's speed drifts by tens of percent within a minute, so the ratio
// is the median of per-round ratios (each pair measured back to back).
const prefillRatio = median(prefillTps.map((g, i) => g / ppRuns[i].avg_ts));
const decodeRatio = median(runs.map((r, i) => r.decode_tps / tgRuns[i].avg_ts));
const out = {
  date: new Date().toISOString(), model: model.split("/").pop(), threads: Number(threads),
  llama_bench: { prefill_tps: pp.avg_ts, prefill_tokens: pp.n_prompt, decode_tps: tg.avg_ts, decode_tokens: tg.n_gen, decode_depth: tg.n_depth },
  llama_bench_runs: { prefill_tps: ppRuns.map((r) => r.avg_ts), decode_tps: tgRuns.map((r) => r.avg_ts) },
  gateway: { prefill_tps: prefill, prompt_tokens: runs[0].prompt_tokens, decode_tps: decode, completion_tokens: runs[0].completion_tokens, runs, prefill_runs: prefillRuns },
  ratio: { prefill: prefillRatio, decode: decodeRatio },
  ratio_of_medians: { prefill: prefill / pp.avg_ts, decode: decode / tg.avg_ts },
  target: ">= 0.95 of llama-bench",
};
fs.writeFileSync(`${resultsDir}/edge_throughput.json`, JSON.stringify(out, null, 2) + "\n");
const md = `# Edge throughput: gateway vs llama-bench\n\n` +
  `${out.date}, model ${out.model}, ${threads} threads, same file and batch size (512).\n\n` +
  `| | llama-bench (median) | through tiergate (median) | ratio (median of per-round ratios) |\n|---|---:|---:|---:|\n` +
  `| prefill tokens/s (${pp.n_prompt}-token prompt) | ${pp.avg_ts.toFixed(1)} | ${prefill.toFixed(1)} | ${out.ratio.prefill.toFixed(3)} |\n` +
  `| decode tokens/s (${tg.n_gen} tokens after the ${tg.n_depth}-token prompt) | ${tg.avg_ts.toFixed(2)} | ${decode.toFixed(2)} | ${out.ratio.decode.toFixed(3)} |\n\n` +
  `Medians of ${runs.length} interleaved rounds (one llama-bench repetition of each test and one request of each kind through tiergate). ` +
  `Gateway figures timed with curl: decode from the first to the last byte of a streamed ${tg.n_gen}-token answer, ` +
  `prefill from the time to the first byte of a streamed max_tokens=1 request (HTTP, template and tokenizer included). Target: ratio >= 0.95.\n`;
fs.writeFileSync(`${resultsDir}/edge_throughput.md`, md);
console.log(md);
JS
