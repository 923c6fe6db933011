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
source "$here/../../scripts/lib.sh"
cleanup() {
  tg_cleanup
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

vocab="$llama_dir/models/ggml-vocab-llama-spm.gguf"
"$tiergate" make-test-model --out "$work/edge.gguf" --vocab-from "$vocab" --layers 2 --embd 128 --seed 7 >/dev/null
"$tiergate" make-test-model --out "$work/cloud.gguf" --vocab-from "$vocab" --layers 2 --embd 256 --seed 11 >/dev/null

tg_start_llama_server "$llama_server" "$work/cloud.gguf" upstream-model "$work/llama-server.log" -c 2048 -np 2 -t 1
upstream=$tg_url

cat >"$work/tiergate.yaml" <<YAML
listen: 127.0.0.1:0
edge:
  model: $work/edge.gguf
  context: 1024
  parallel: 2
  threads: 1
cloud:
  - name: llama
    base_url: $upstream/v1
    models: [upstream-model]
    price_per_mtok: {input: 0.5, output: 1.5}
YAML
tg_start_tiergate "$tiergate" "$work/tiergate.yaml" "$work/tiergate.log"
url=$tg_url

cd "$here"
TIERGATE_BASE_URL="$url/v1" node --test sdk.test.mjs
