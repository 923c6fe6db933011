# Shared by the benchmark scripts: paths, a synthetic model, starting servers.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/bin"
work="$root/build/bench"
results="$root/bench/results"
mkdir -p "$work" "$results"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

vocab="$root/third_party/llama.cpp/models/ggml-vocab-llama-spm.gguf"
threads="${BENCH_THREADS:-$(nproc)}"

# bench_model NAME LAYERS EMBD: a synthetic F16 model (made once).
bench_model() {
  local out="$work/$1.gguf"
  [[ -f "$out" ]] || "$bin/tiergate" make-test-model --out "$out" --vocab-from "$vocab" --layers "$2" --embd "$3" \
    --heads 12 --seed 5 >&2
  echo "$out"
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# start_llama_server MODEL ALIAS -> prints its base URL
start_llama_server() {
  local port; port=$(free_port)
  "$bin/llama-server" -m "$1" --host 127.0.0.1 --port "$port" -a "$2" -c 4096 -np 4 -t "$threads" \
    --no-webui --no-warmup >"$work/llama-server.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 1200); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
  echo "http://127.0.0.1:$port"
}

# start_tiergate CONFIG_FILE -> prints its base URL once ready
start_tiergate() {
  local out="$work/tiergate.$$.out"
  "$bin/tiergate" serve --config "$1" >"$out" 2>"$work/tiergate.log" &
  pids+=($!)
  local url=""
  for _ in $(seq 1 1200); do
    url=$(grep -o 'http://[^ ]*' "$out" 2>/dev/null | head -1 || true)
    [[ -n "$url" ]] && curl -fs "$url/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  echo "$url"
}
