#!/usr/bin/env bash
# Routing quality on the dev data in ../shared/data (read in place, never
# copied): 5-fold cross-validated APGR / CPT per benchmark next to the
# length heuristic and random routing, held-out intent accuracy, and
# leave-one-benchmark-out runs (train on the others, score the unseen one).
# Writes bench/results/router_quality.{json,md}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="${TIERGATE_SHARED_DATA:-$root/../shared/data}"
routing=("$data/routing/mmlu_dev.jsonl" "$data/routing/gsm8k_dev.jsonl" "$data/routing/routerbench_dev.jsonl")
prompts="$data/prompts/prompt_categories_dev.jsonl"
for f in "${routing[@]}" "$prompts"; do
  [[ -f "$f" ]] || { echo "[bench] skipped: $f is absent (the shared dev data lives beside the repository)" >&2; exit 0; }
done
folds="${BENCH_FOLDS:-5}"

# Three fold assignments: with a few hundred rows a benchmark's figures move
# by a few points between splits, so the spread is reported too.
seeds=(1 2 3)
for seed in "${seeds[@]}"; do
  echo "[bench] $folds-fold cross-validation on ${#routing[@]} benchmarks, fold seed $seed" >&2
  "$bin/tiergate" router cv --data "${routing[@]}" --intent-data "$prompts" --folds "$folds" --seed "$seed" \
    >"$work/router-cv-$seed.json"
done

for i in "${!routing[@]}"; do
  held_out=${routing[$i]}
  train=()
  for j in "${!routing[@]}"; do [[ $j == "$i" ]] || train+=("${routing[$j]}"); done
  name=$(basename "$held_out" .jsonl)
  echo "[bench] leave one benchmark out: $name" >&2
  "$bin/tiergate" router train --data "${train[@]}" --intent-data "$prompts" --cv 0 --out "$work/router-without-$name.json" >/dev/null
  "$bin/tiergate" router eval --router "$work/router-without-$name.json" --data "$held_out" >"$work/router-lobo-$name.json"
  # The same without the familiarity guard, to show what it does.
  "$bin/tiergate" router train --data "${train[@]}" --intent-data "$prompts" --cv 0 --no-familiarity \
    --out "$work/router-without-$name-unguarded.json" >/dev/null
  "$bin/tiergate" router eval --router "$work/router-without-$name-unguarded.json" --data "$held_out" \
    >"$work/router-lobo-$name-unguarded.json"
done

node - "$work" "$results" "$folds" "${#seeds[@]}" "${routing[@]}" <<'JS'
const fs = require("fs");
const [work, resultsDir, folds, nSeeds, ...files] = process.argv.slice(2);
const runs = Array.from({ length: Number(nSeeds) }, (_, i) => JSON.parse(fs.readFileSync(`${work}/router-cv-${i + 1}.json`, "utf8")));
const cv = runs[0];
const names = files.map((f) => f.split("/").pop().replace(/\.jsonl$/, ""));
const lobo = {};
for (const n of names) {
  const r = JSON.parse(fs.readFileSync(`${work}/router-lobo-${n}.json`, "utf8"));
  const u = JSON.parse(fs.readFileSync(`${work}/router-lobo-${n}-unguarded.json`, "utf8"));
  lobo[n] = { apgr: r.APGR, cpt50: r["CPT(50%)"], length_apgr: r.details.overall.baselines.length.apgr,
              length_cpt50: r.details.overall.baselines.length.cpt50, unguarded_apgr: u.APGR,
              minus_length: r.details.overall.baselines.length.router_apgr_minus_length };
}
// Per benchmark: the mean over fold seeds and the range.
const spread = {};
for (const b of Object.keys(cv.benchmarks)) {
  spread[b] = {};
  for (const k of ["apgr", "cpt50", "cpt80", "cpt95", "cloud_share_for_95pct_quality"]) {
    const xs = runs.map((r) => r.benchmarks[b][k]);
    spread[b][k] = { mean: xs.reduce((s, x) => s + x, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) };
  }
}
const out = { date: new Date().toISOString(), folds: Number(folds), fold_seeds: runs.length, files: names,
              cross_validation_by_seed: runs, mean_over_seeds: spread, leave_one_benchmark_out: lobo };
fs.writeFileSync(`${resultsDir}/router_quality.json`, JSON.stringify(out, null, 2) + "\n");
const f = (x) => x.toFixed(3), pc = (x) => (100 * x).toFixed(1) + "%";
let md = `# Routing quality (${folds}-fold cross-validation on the dev data)\n\n${out.date}. ` +
  `Out-of-fold scores of \`tiergate router cv\`, mean over ${runs.length} fold assignments (range in brackets); ` +
  `RouteLLM's metrics (APGR: area under the performance-gap-recovered curve, random = 0.5; CPT(x): the cloud share ` +
  `needed to recover x of the gap).\n\n` +
  `"APGR - length": the router's APGR less length's, fold seed 1, with the 95% interval of a paired bootstrap over ` +
  `the rows (${cv.benchmarks[Object.keys(cv.benchmarks)[0]].baselines.length.router_apgr_minus_length.resamples} draws).\n\n` +
  `| benchmark | rows | APGR | CPT(50%) | CPT(80%) | CPT(95%) | cloud share for 95% quality | length APGR | length CPT(50%) | APGR - length | random APGR |\n` +
  `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n`;
const sf = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
const diff = (d) => `${sf(d.observed)} [${sf(d.ci95_low)}, ${sf(d.ci95_high)}]`;
const range = (s, fmt) => `${fmt(s.mean)} [${fmt(s.min)}–${fmt(s.max)}]`;
for (const [b, v] of Object.entries(cv.benchmarks)) {
  const s = spread[b];
  md += `| ${b} | ${v.rows} | ${range(s.apgr, f)} | ${range(s.cpt50, pc)} | ${pc(s.cpt80.mean)} | ${pc(s.cpt95.mean)} | ` +
        `${pc(s.cloud_share_for_95pct_quality.mean)} | ${f(v.baselines.length.apgr)} | ${pc(v.baselines.length.cpt50)} | ` +
        `${diff(v.baselines.length.router_apgr_minus_length)} | ${f(v.baselines.random_mean_of_10.apgr)} |\n`;
}
md += `\nTargets (issue 3, held-out rows): MMLU CPT(50%) < 35.5% and APGR > 0.65; GSM8K CPT(50%) < 33.6%; never below the length heuristic.\n`;
md += `\n## Leave one benchmark out (trained on the others, scored on the unseen one)\n\n` +
  `"without guard": trained with \`--no-familiarity\` (complexity.h: requests unlike every training benchmark are ranked by length).\n\n` +
  `| benchmark | APGR | CPT(50%) | APGR without guard | length APGR | length CPT(50%) | APGR - length [95% interval] |\n|---|---:|---:|---:|---:|---:|---:|\n`;
for (const [b, v] of Object.entries(lobo)) {
  md += `| ${b} | ${f(v.apgr)} | ${pc(v.cpt50)} | ${f(v.unguarded_apgr)} | ${f(v.length_apgr)} | ${pc(v.length_cpt50)} | ${diff(v.minus_length)} |\n`;
}
if (cv.intent) {
  const i = cv.intent;
  md += `\n## Intent (held-out accuracy on the labelled prompts, ${i.rows} rows, fold seed 1)\n\naccuracy ${f(i.accuracy)}; cue rules alone ${f(i.baselines.cue_rules_only)}; ` +
        `always "${i.baselines.majority_class_name}" ${f(i.baselines.majority_class)}.\n\n| category | mapped to | rows | accuracy |\n|---|---|---:|---:|\n`;
  for (const [c, v] of Object.entries(i.categories)) md += `| ${c} | ${v.mapped_to} | ${v.rows} | ${f(v.accuracy)} |\n`;
}
fs.writeFileSync(`${resultsDir}/router_quality.md`, md);
console.log(md);
JS
