# Shared by the benchmark scripts: paths, a synthetic model, starting servers.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${TIERGATE_BIN_DIR:-$root/build/bin}"
work="$root/build/bench"
results="$root/bench/results"
mkdir -p "$work" "$results"
source "$root/scripts/lib.sh"

vocab="$root/third_party/llama.cpp/models/ggml-vocab-llama-spm.gguf"
threads="${BENCH_THREADS:-$(nproc)}"

# bench_model NAME LAYERS EMBD: a synthetic F16 model (made once), heads of 64.
bench_model() {
  local out="$work/$1.gguf" heads=$(( $3 / 64 > 0 ? $3 / 64 : 1 ))
  if [[ ! -f "$out" ]]; then
    "$bin/tiergate" make-test-model --out "$out" --vocab-from "$vocab" --layers "$2" --embd "$3" \
      --heads "$heads" --seed 5 >&2 || return 1
  fi
  echo "$out"
}

start_llama_server() {  # MODEL ALIAS [extra llama-server args]: sets tg_url
  local model=$1 alias=$2
  shift 2
  tg_start_llama_server "$bin/llama-server" "$model" "$alias" "$work/llama-server.log" -c 4096 -np 4 "$@"
}

start_tiergate() {  # CONFIG: sets tg_url
  tg_start_tiergate "$bin/tiergate" "$1" "$work/tiergate.log"
}

# pii_dev_inputs: the inputs of the privacy scan's speed diagnostics
# (pii_instructions.sh, pii_profile.sh). Sets pii_prompts: the prompts of
# pii_scan_bench's full_scan_with_tagger/prompts, in its order (each row's
# "prompt", then its messages' contents) as {"text"} lines under
# build/bench; and pii_tagger: a tagger trained on the labelled dev rows with
# the word lists. Ends the script with a note when ../shared/data is absent.
pii_dev_inputs() {
  local data="${TIERGATE_SHARED_DATA:-$root/../shared/data}"
  local dev="$data/pii/presidio_generated_dev.jsonl" gazetteers="$root/third_party/gazetteers" f
  for f in "$dev" "$data/routing/mmlu_dev.jsonl"; do
    [[ -f "$f" ]] || { echo "[bench] skipped: $f is absent (the shared dev data lives beside the repository)" >&2; exit 0; }
  done
  [[ -d "$gazetteers" ]] || { echo "[bench] $gazetteers is absent: run scripts/setup.sh" >&2; exit 1; }
  pii_prompts="$work/pii-prompts.jsonl"
  node - "$data" "$pii_prompts" <<'JS'
const fs = require("fs");
const [dir, out] = process.argv.slice(2);
const lines = [];
for (const file of ["routing/mmlu_dev.jsonl", "routing/gsm8k_dev.jsonl", "routing/routerbench_dev.jsonl",
                    "prompts/prompt_categories_dev.jsonl"]) {
  const path = `${dir}/${file}`;
  if (!fs.existsSync(path)) continue;
  for (const line of fs.readFileSync(path, "utf8").split("\n")) {
    let row;
    try { row = JSON.parse(line); } catch { continue; }
    if (row === null || typeof row !== "object") continue;
    if (typeof row.prompt === "string") lines.push(JSON.stringify({ text: row.prompt }));
    for (const m of Array.isArray(row.messages) ? row.messages : []) {
      if (m && typeof m.content === "string") lines.push(JSON.stringify({ text: m.content }));
    }
  }
}
fs.writeFileSync(out, lines.join("\n") + "\n");
JS
  pii_tagger="$work/pii-dev-tagger.bin"
  echo "[bench] training a tagger on $(basename "$dev") with the word lists" >&2
  "$bin/tiergate" pii train --data "$dev" --gazetteers "$gazetteers" -o "$pii_tagger" 2>/dev/null
}
