#!/usr/bin/env bash
# Dispatch latency: time to first token and total latency of edge-only,
# cloud-only and speculative requests through tiergate, against the same
# local upstream (llama-server on a synthetic model standing in for the
# cloud), with the escalation rate; and what an escalation costs when the
# verifier decides after K draft tokens versus at the end of the draft.
# Writes bench/results/dispatch_latency.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
n="${BENCH_REQUESTS:-40}" max_tokens="${BENCH_MAX_TOKENS:-32}" early="${BENCH_EARLY_EXIT:-8}"
edge_model=$(bench_model "dispatch-edge-L2-E256" 2 256)
cloud_model=$(bench_model "dispatch-cloud-L4-E256" 4 256)
start_llama_server "$cloud_model" cloud-model -t 1
upstream=$tg_url

# One run: N requests of each kind through a tiergate whose verifier gives
# its first verdict after EARLY draft tokens, with THRESHOLD ("" = the
# verifier's own). The built-in verifier rejects every draft of a synthetic
# (random-weight) edge model, whose confidence is ~0; a run with threshold 0
# accepts them all, to time the accepted path.
run() {  # EARLY LABEL [THRESHOLD]
  local threshold=${3:-}
  cat >"$work/dispatch-$2.yaml" <<YAML
listen: 127.0.0.1:0
edge:
  model: $edge_model
  context: 512
  parallel: 2
  threads: 1
cloud:
  - name: upstream
    base_url: $upstream/v1
    models: [cloud-model]
speculative:
  enabled: true
  early_exit_tokens: $1
  hold_back_tokens: $1
${threshold:+  threshold: $threshold}
YAML
  start_tiergate "$work/dispatch-$2.yaml"
  node - "$tg_url/v1" "$n" "$max_tokens" "$2" >"$work/dispatch-$2.json" <<'JS'
const [url, n, maxTokens, label] = process.argv.slice(2);
async function one(model, content) {
  const t0 = performance.now();
  const res = await fetch(`${url}/chat/completions`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content }], max_tokens: Number(maxTokens),
                           temperature: 0, stream: true }),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buf = "", first = null, info = null;
  for await (const part of res.body) {
    buf += decoder.decode(part, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const event = buf.slice(0, i); buf = buf.slice(i + 2);
      if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
      const chunk = JSON.parse(event.slice(6));
      if (first === null && chunk.choices?.[0]?.delta?.content) first = performance.now();
      if (chunk.tiergate) info = chunk.tiergate;
    }
  }
  const end = performance.now();
  return { model, ttft_ms: (first ?? end) - t0, total_ms: end - t0, tier: info?.tier,
           verdict: info?.speculative?.verdict, confidence: info?.speculative?.confidence,
           time_lost_ms: info?.speculative?.time_lost_ms };
}
const prompts = ["Tell me a short story about a lighthouse.", "What should I pack for a weekend hike?",
                 "Describe a sunny morning in the city.", "Give me three names for a cat."];
const rows = [];
for (let i = 0; i < Number(n); i++) {  // interleaved, so drift hits every kind alike
  const p = prompts[i % prompts.length];
  rows.push({ kind: "edge", ...(await one("edge", p)) });
  rows.push({ kind: "cloud", ...(await one("cloud-model", p)) });
  rows.push({ kind: "speculative", ...(await one("auto", p)) });
}
console.log(JSON.stringify({ label, rows }));
JS
  kill "${tg_pids[-1]}"
  wait "${tg_pids[-1]}" 2>/dev/null || true
}
run "$early" "early"
run "$max_tokens" "end"
run "$early" "accepted" 0

node - "$work/dispatch-early.json" "$work/dispatch-end.json" "$work/dispatch-accepted.json" "$results" "$n" \
  "$max_tokens" "$early" <<'JS'
const fs = require("fs");
const [earlyFile, endFile, acceptedFile, resultsDir, n, maxTokens, early] = process.argv.slice(2);
const q = (xs, p) => { if (!xs.length) return null; const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const summary = (rows) => ({ n: rows.length, ttft_p50_ms: q(rows.map((r) => r.ttft_ms), 0.5), ttft_p90_ms: q(rows.map((r) => r.ttft_ms), 0.9),
                             total_p50_ms: q(rows.map((r) => r.total_ms), 0.5), total_p90_ms: q(rows.map((r) => r.total_ms), 0.9) });
const runs = {};
for (const f of [earlyFile, endFile, acceptedFile]) {
  const { label, rows } = JSON.parse(fs.readFileSync(f, "utf8"));
  const spec = rows.filter((r) => r.kind === "speculative");
  const escalated = spec.filter((r) => r.verdict === "escalated");
  const accepted = spec.filter((r) => r.verdict === "accepted");
  runs[label] = {
    edge: summary(rows.filter((r) => r.kind === "edge")), cloud: summary(rows.filter((r) => r.kind === "cloud")),
    speculative: summary(spec), speculative_accepted: summary(accepted), speculative_escalated: summary(escalated),
    escalation_rate: spec.length ? escalated.length / spec.length : null,
    time_lost_p50_ms: q(escalated.map((r) => r.time_lost_ms), 0.5),
  };
}
const out = { date: new Date().toISOString(), requests_per_kind: Number(n), max_tokens: Number(maxTokens),
              early_exit_tokens: Number(early), runs };
fs.writeFileSync(`${resultsDir}/dispatch_latency.json`, JSON.stringify(out, null, 2) + "\n");
const f = (x) => (x === null || x === undefined ? "-" : x.toFixed(1));
const row = (name, s) => `| ${name} | ${s.n} | ${f(s.ttft_p50_ms)} | ${f(s.ttft_p90_ms)} | ${f(s.total_p50_ms)} | ${f(s.total_p90_ms)} |`;
let md = `# Dispatch latency: edge, cloud and speculative requests\n\n${out.date}. Streamed requests of ${maxTokens} tokens ` +
  `(temperature 0), ${n} of each kind, interleaved, through tiergate to its edge (synthetic L2-E256) and to a local ` +
  `llama-server standing in for the cloud (synthetic L4-E256). Speculative: model "auto", every request verified ` +
  `(placeholder rule). The synthetic edge model writes random text, so the built-in verifier rejects every draft ` +
  `(confidence ~0): the escalation rate below is 100% by construction, and a third run with threshold 0 times the ` +
  `accepted path.\n\n`;
for (const [label, r] of Object.entries(runs)) {
  const when = label === "early" ? `after ${early} draft tokens (early exit), the built-in verifier`
    : label === "end" ? `at the end of the draft (${maxTokens} tokens), the built-in verifier`
    : `after ${early} draft tokens, threshold 0 (every draft accepted)`;
  md += `## Verdict ${when}\n\n| kind | n | TTFT p50 ms | TTFT p90 ms | total p50 ms | total p90 ms |\n|---|---:|---:|---:|---:|---:|\n` +
    [row("edge only", r.edge), row("cloud only", r.cloud), row("speculative (all)", r.speculative),
     row("speculative, accepted", r.speculative_accepted), row("speculative, escalated", r.speculative_escalated)].join("\n") +
    `\n\nEscalation rate ${r.escalation_rate === null ? "-" : (100 * r.escalation_rate).toFixed(1) + "%"}; ` +
    `time lost per escalation (median, from the tiergate object) ${f(r.time_lost_p50_ms)} ms.\n\n`;
  if (label === "accepted" && r.speculative_accepted.n) {
    md += `An accepted draft against an edge-only answer (medians): TTFT ${f(r.speculative_accepted.ttft_p50_ms)} vs ` +
      `${f(r.edge.ttft_p50_ms)} ms (the ${early}-token hold-back), total ${f(r.speculative_accepted.total_p50_ms)} vs ` +
      `${f(r.edge.total_p50_ms)} ms.\n\n`;
  }
}
const e = runs.early, z = runs.end;
if (e.speculative_escalated.n && z.speculative_escalated.n) {
  md += `## What an escalation costs\n\nExtra total latency of an escalated request over a cloud-only one (medians): ` +
    `${f(e.speculative_escalated.total_p50_ms - e.cloud.total_p50_ms)} ms when decided after ${early} tokens, ` +
    `${f(z.speculative_escalated.total_p50_ms - z.cloud.total_p50_ms)} ms when decided at the end.\n`;
}
fs.writeFileSync(`${resultsDir}/dispatch_latency.md`, md);
console.log(md);
JS
