#!/usr/bin/env bash
# The compression pipeline end to end on a synthetic checkpoint of ~100M
# parameters (outlier channels in its norms, as trained models have):
# fixed tiers with and without an importance matrix, and mixed precision under
# size budgets between and at the fixed tiers, all judged on a query log other
# than the one the importance matrix came from.
# Query logs: the prompts of ../shared/data/prompts, split in two halves (even
# rows calibrate, odd rows evaluate), written under build/bench only.
# Writes bench/results/variants.{json,md,svg}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
prompts="$root/../shared/data/prompts/prompt_categories_dev.jsonl"
if [[ ! -f "$prompts" ]]; then
  echo "[bench] skipped: $prompts is absent (the query logs are built from it)" >&2
  exit 0
fi
layers="${BENCH_LAYERS:-8}" embd="${BENCH_EMBD:-768}"
tiers="${BENCH_TIERS:-q8_0,q6_k,q5_k_m,q4_k_m,q3_k_m,q2_k}"
checkpoint="$work/variants-L${layers}-E${embd}.gguf"
if [[ ! -f "$checkpoint" ]]; then
  "$bin/tiergate" make-test-model --out "$checkpoint" --vocab-from "$vocab" --layers "$layers" --embd "$embd" \
    --heads $(( embd / 64 )) --norm-spread 0.5 --seed 17 >&2
fi
calibration="$work/queries-calibration.jsonl"
evaluation="$work/queries-evaluation.jsonl"
node -e '
  const fs = require("fs");
  const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
  const line = (r) => JSON.stringify({model: "edge", messages: [{role: "user", content: r.prompt}]});
  fs.writeFileSync(process.argv[2], rows.filter((_, i) => i % 2 === 0).map(line).join("\n") + "\n");
  fs.writeFileSync(process.argv[3], rows.filter((_, i) => i % 2 === 1).map(line).join("\n") + "\n");
' "$prompts" "$calibration" "$evaluation"

out="$work/variants"
rm -rf "$out"
echo "[bench] fixed tiers $tiers, with and without the importance matrix" >&2
"$bin/tiergate" variants build --checkpoint "$checkpoint" --tiers "$tiers" --queries "$calibration" \
  --compare-imatrix --out "$out" --threads "$threads"
# Budgets from the fixed tiers' sizes: at q3_k_m's size, between q3_k_m and
# q4_k_m, and at q4_k_m's size. The second build reuses the first one's files.
size_of() { stat -c %s "$out/$1-imat.gguf"; }
q3=$(size_of q3_k_m) q4=$(size_of q4_k_m)
budgets="$q3,$(( (q3 + q4) / 2 )),$q4"
echo "[bench] mixed precision at budgets $budgets bytes" >&2
"$bin/tiergate" variants build --checkpoint "$checkpoint" --tiers "$tiers" --queries "$calibration" \
  --compare-imatrix --budget "$budgets" --out "$out" --threads "$threads"
"$bin/tiergate" variants eval --dir "$out" --reference "$checkpoint" --queries "$evaluation" \
  --threads "$threads" --max-tokens "${BENCH_EVAL_TOKENS:-2048}"

cp "$out/eval.svg" "$results/variants.svg"
node - "$out/eval.json" "$out" "$results" "$checkpoint" <<'JS'
const fs = require("fs");
const [evalFile, dir, resultsDir, checkpoint] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(evalFile, "utf8"));
const search = fs.readdirSync(dir).filter((f) => f.endsWith(".search.json"))
  .map((f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8")));
const mib = (b) => (b / 1048576).toFixed(1);
const rows = report.variants;
const byFile = Object.fromEntries(rows.map((r) => [r.file, r]));
const ref = rows[0];
const line = (r) => `| ${r.file.split("/").pop()} | ${mib(r.size_bytes)} | ${r.imatrix ? "yes" : "no"} | ` +
  `${r.kl_mean.toExponential(3)} | ${(100 * r.top1_agreement).toFixed(2)}% | ${r.perplexity.toFixed(2)} | ` +
  `${r.prefill_tps ? r.prefill_tps.toFixed(0) : "-"} | ${r.decode_tps ? r.decode_tps.toFixed(1) : "-"} | ` +
  `${r.peak_rss_bytes ? mib(r.peak_rss_bytes) : "-"} |`;
// Mixed precision against the fixed tier of the same or next size (both with the importance matrix).
const fixed = rows.filter((r) => r.imatrix && !r.file.startsWith("budget")).sort((a, b) => a.size_bytes - b.size_bytes);
const compare = search.map((s) => {
  const file = `${s.recipe.replace(/[^a-z0-9_.-]/gi, (c) => (c === "+" ? "-" : "_")).toLowerCase()}-imat.gguf`;
  const mixed = byFile[file];
  const below = fixed.filter((f) => f.size_bytes <= s.budget_bytes + 65536).pop();
  return { budget: s.budget_bytes, mixed, fixed: below, upgrades: s.path.length, estimated_error: s.estimated_error };
}).filter((c) => c.mixed && c.fixed);
const out = { date: new Date().toISOString(), checkpoint: checkpoint.split("/").pop(), base: report.base,
  positions: report.positions, reference_perplexity: report.reference_perplexity,
  bench_decode_tps: report.bench_decode_tps, variants: rows,
  mixed_vs_fixed: compare.map((c) => ({ budget_bytes: c.budget, mixed: c.mixed.file, mixed_kl: c.mixed.kl_mean,
    fixed: c.fixed.file, fixed_kl: c.fixed.kl_mean, kl_ratio: c.mixed.kl_mean / c.fixed.kl_mean })) };
fs.writeFileSync(`${resultsDir}/variants.json`, JSON.stringify(out, null, 2) + "\n");
let md = `# Compression pipeline: variants of one checkpoint on the user's queries\n\n` +
  `${out.date}. Checkpoint ${out.checkpoint} (${report.base}), F16, synthetic weights with outlier channels ` +
  `(\`make-test-model --norm-spread 0.5\`). Importance matrix from the calibration half of ` +
  `../shared/data/prompts (even rows); every figure below on the other half (odd rows, ${report.positions} ` +
  `next-token positions), against the F16 reference. Speed and peak RSS: \`tiergate variants measure\` in a child ` +
  `process per variant (best of 3 rounds of a 128-token prefill and 64 decoded tokens, ${process.env.BENCH_THREADS || "all"} threads).\n\n` +
  `| variant | MiB | imatrix | KL mean | top-1 agree | ppl | prefill tok/s | decode tok/s | peak RSS MiB |\n` +
  `|---|---:|---|---:|---:|---:|---:|---:|---:|\n` + rows.map(line).join("\n") + "\n\n" +
  `## Importance matrix: KL without / with, per tier\n\n| tier | KL plain | KL imatrix | ratio |\n|---|---:|---:|---:|\n`;
for (const r of rows.filter((r) => r.imatrix && !r.file.startsWith("budget"))) {
  const plain = byFile[r.file.replace("-imat", "")];
  if (plain) md += `| ${r.file.replace("-imat.gguf", "")} | ${plain.kl_mean.toExponential(3)} | ${r.kl_mean.toExponential(3)} | ${(r.kl_mean / plain.kl_mean).toFixed(3)} |\n`;
}
md += `\n## Mixed precision at a size budget vs the largest fixed tier within that budget\n\n` +
  `| budget MiB | mixed | MiB | KL | fixed tier | MiB | KL | KL mixed / fixed |\n|---:|---|---:|---:|---|---:|---:|---:|\n`;
for (const c of compare) {
  md += `| ${mib(c.budget)} | ${c.mixed.file} | ${mib(c.mixed.size_bytes)} | ${c.mixed.kl_mean.toExponential(3)} | ` +
    `${c.fixed.file} | ${mib(c.fixed.size_bytes)} | ${c.fixed.kl_mean.toExponential(3)} | ${(c.mixed.kl_mean / c.fixed.kl_mean).toFixed(3)} |\n`;
}
md += `\nThe budget search's path (every upgrade, its size and estimated error) is in the build directory's ` +
  `*.search.json; the plot is variants.svg.\n`;
fs.writeFileSync(`${resultsDir}/variants.md`, md);
console.log(md);
JS
