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
