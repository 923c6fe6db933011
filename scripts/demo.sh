#!/usr/bin/env bash
# The main job on an embedded default: starts tiergate with an edge model and
# a cloud tier, sends a mixed workload through the OpenAI API, and prints a
# routing report (per request: tier, reason, latency, tokens, cost; in total:
# cost against sending everything to the cloud).
#
#   scripts/demo.sh            run the workload and stop
#   scripts/demo.sh --serve    then keep serving until Ctrl-C
#
# Edge model: TIERGATE_EDGE_MODEL (a GGUF path), else a synthetic model made
# on the spot. Cloud tier: a real provider when OPENAI_API_KEY is set
# (TIERGATE_CLOUD_BASE_URL, TIERGATE_CLOUD_MODEL override the defaults), else
# llama.cpp's llama-server on loopback with a larger synthetic model, priced
# like the provider so the report's cost comparison is meaningful.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

serve=0
for arg in "$@"; do
  case "$arg" in
    --serve) serve=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "demo.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

scripts/setup.sh
echo "[demo] building tiergate and llama-server (incremental)" >&2
cmake --build build --target tiergate llama-server >/dev/null

bin="$root/build/bin"
work="$root/build/demo"
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

vocab="$root/third_party/llama.cpp/models/ggml-vocab-llama-spm.gguf"
edge_model="${TIERGATE_EDGE_MODEL:-}"
if [[ -z "$edge_model" ]]; then
  edge_model="$work/edge-synthetic.gguf"
  [[ -f "$edge_model" ]] || "$bin/tiergate" make-test-model --out "$edge_model" --vocab-from "$vocab" \
    --layers 4 --embd 256 --seed 1 >&2
fi
[[ -f "$edge_model" ]] || { echo "demo.sh: TIERGATE_EDGE_MODEL=$edge_model does not exist" >&2; exit 2; }

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

if [[ -n "${OPENAI_API_KEY:-}" ]]; then
  cloud_name="openai"
  cloud_url="${TIERGATE_CLOUD_BASE_URL:-https://api.openai.com/v1}"
  cloud_model="${TIERGATE_CLOUD_MODEL:-gpt-4o-mini}"
  key_line="    api_key_env: OPENAI_API_KEY"
  echo "[demo] cloud tier: $cloud_url ($cloud_model), key from OPENAI_API_KEY" >&2
else
  cloud_name="local-cloud"
  cloud_model="cloud-synthetic"
  cloud_gguf="$work/cloud-synthetic.gguf"
  [[ -f "$cloud_gguf" ]] || "$bin/tiergate" make-test-model --out "$cloud_gguf" --vocab-from "$vocab" \
    --layers 8 --embd 512 --seed 2 >&2
  port=$(free_port)
  "$bin/llama-server" -m "$cloud_gguf" --host 127.0.0.1 --port "$port" -a "$cloud_model" -c 4096 -np 2 \
    --no-webui --no-warmup >"$work/llama-server.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
  cloud_url="http://127.0.0.1:$port/v1"
  key_line=""
  echo "[demo] cloud tier: llama-server on $cloud_url serving a larger synthetic model (no OPENAI_API_KEY set)" >&2
fi

cat >"$work/tiergate.yaml" <<YAML
# Written by scripts/demo.sh
listen: 127.0.0.1:${TIERGATE_PORT:-0}
edge:
  model: $edge_model
  context: 2048
  parallel: 2
cloud:
  - name: $cloud_name
    base_url: $cloud_url
$key_line
    models: [$cloud_model]
    price_per_mtok: {input: 0.15, output: 0.60}
routing:
  auto:
    max_edge_prompt_tokens: 256
YAML
"$bin/tiergate" serve --config "$work/tiergate.yaml" >"$work/tiergate.out" 2>"$work/tiergate.log" &
pids+=($!)
url=""
for _ in $(seq 1 600); do
  url=$(grep -o 'http://[^ ]*' "$work/tiergate.out" 2>/dev/null | head -1 || true)
  [[ -n "$url" ]] && curl -fs "$url/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
if [[ -z "$url" ]] || ! curl -fs "$url/readyz" >/dev/null 2>&1; then
  echo "demo.sh: tiergate did not become ready; its log:" >&2
  cat "$work/tiergate.log" >&2
  exit 1
fi
echo "[demo] tiergate ready at $url (edge: $(basename "$edge_model"), cloud: $cloud_name)" >&2

TIERGATE_BASE_URL="$url/v1" CLOUD_PRICE_IN=0.15 CLOUD_PRICE_OUT=0.60 node scripts/demo_workload.mjs

if ((serve)); then
  cat <<EOT

Tiergate is serving at $url (Ctrl-C to stop). Try:

  curl -s $url/v1/chat/completions -H 'Content-Type: application/json' \\
    -d '{"model": "auto", "messages": [{"role": "user", "content": "Say hello"}], "max_tokens": 32}'

Also: $url/v1/models  $url/readyz  $url/metrics
EOT
  wait "${pids[-1]}"
fi
