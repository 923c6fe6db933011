#!/usr/bin/env bash
# Starts llama-server (cloud tier) and tiergate serve on loopback, runs the
# openai SDK tests against them, and stops both. Called by ctest:
#   run_sdk_test.sh TIERGATE_BIN LLAMA_SERVER_BIN LLAMA_SOURCE_DIR
set -euo pipefail
tiergate=$1 llama_server=$2 llama_dir=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -d "$here/../../node_modules/openai" ]]; then
  echo "the openai npm package is not installed; run scripts/setup.sh (npm ci at the repository root)" >&2
  exit 1
fi
work=$(mktemp -d -t tiergate-sdk-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

vocab="$llama_dir/models/ggml-vocab-llama-spm.gguf"
"$tiergate" make-test-model --out "$work/edge.gguf" --vocab-from "$vocab" --layers 2 --embd 128 --seed 7 >/dev/null
"$tiergate" make-test-model --out "$work/cloud.gguf" --vocab-from "$vocab" --layers 2 --embd 256 --seed 11 >/dev/null

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"$llama_server" -m "$work/cloud.gguf" --host 127.0.0.1 --port "$port" -a upstream-model -c 2048 -np 2 -t 1 \
  --no-webui --no-warmup >"$work/llama-server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done

cat >"$work/tiergate.yaml" <<YAML
listen: 127.0.0.1:0
edge:
  model: $work/edge.gguf
  context: 1024
  parallel: 2
  threads: 1
cloud:
  - name: llama
    base_url: http://127.0.0.1:$port/v1
    models: [upstream-model]
    price_per_mtok: {input: 0.5, output: 1.5}
YAML
"$tiergate" serve --config "$work/tiergate.yaml" >"$work/tiergate.out" 2>"$work/tiergate.err" &
pids+=($!)
url=""
for _ in $(seq 1 600); do
  url=$(grep -o 'http://[0-9.:]*' "$work/tiergate.out" 2>/dev/null | head -1 || true)
  [[ -n "$url" ]] && curl -fs "$url/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
[[ -n "$url" ]] || { echo "tiergate did not start:" >&2; cat "$work/tiergate.err" >&2; exit 1; }

cd "$here"
TIERGATE_BASE_URL="$url/v1" node --test sdk.test.mjs
