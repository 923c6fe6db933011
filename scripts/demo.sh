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
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"  # see scripts/setup.sh
echo "[demo] building tiergate and llama-server (incremental)" >&2
cmake --build build --target tiergate llama-server >/dev/null

bin="$root/build/bin"
work="$root/build/demo"
mkdir -p "$work"
source "$root/scripts/lib.sh"

vocab="$root/third_party/llama.cpp/models/ggml-vocab-llama-spm.gguf"
edge_model="${TIERGATE_EDGE_MODEL:-}"
if [[ -z "$edge_model" ]]; then
  edge_model="$work/edge-synthetic.gguf"
  [[ -f "$edge_model" ]] || "$bin/tiergate" make-test-model --out "$edge_model" --vocab-from "$vocab" \
    --layers 4 --embd 256 --seed 1 >&2
fi
[[ -f "$edge_model" ]] || { echo "demo.sh: TIERGATE_EDGE_MODEL=$edge_model does not exist" >&2; exit 2; }

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
  tg_start_llama_server "$bin/llama-server" "$cloud_gguf" "$cloud_model" "$work/llama-server.log" -c 4096 -np 2
  cloud_url="$tg_url/v1"
  key_line=""
  echo "[demo] cloud tier: llama-server on $cloud_url serving a larger synthetic model (no OPENAI_API_KEY set)" >&2
fi

# The learned router: trained on the dev routing data when it sits beside the
# repository (../shared/data, read in place), else TIERGATE_ROUTER, else the
# placeholder rule (prompt length and keywords).
router="${TIERGATE_ROUTER:-}"
shared_data="${TIERGATE_SHARED_DATA:-$root/../shared/data}"
if [[ -z "$router" && -f "$shared_data/routing/mmlu_dev.jsonl" ]]; then
  # Trained on every run (seconds): an artifact left by an older build may
  # be of another feature set, which tiergate refuses.
  router="$work/router.json"
  echo "[demo] training the router on $shared_data/routing (a few seconds)" >&2
  "$bin/tiergate" router train --cv 0 --out "$router" \
    --data "$shared_data"/routing/*.jsonl --intent-data "$shared_data"/prompts/*.jsonl >/dev/null
fi
router_line=""
if [[ -n "$router" ]]; then
  router_line="  router: $router"
  echo "[demo] auto routing: learned router $router" >&2
else
  echo "[demo] auto routing: placeholder rule (no trained router; see docs/routing.md)" >&2
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
$router_line
  quality: 0.5
  auto:
    max_edge_prompt_tokens: 256
YAML
tg_start_tiergate "$bin/tiergate" "$work/tiergate.yaml" "$work/tiergate.log"
url=$tg_url
echo "[demo] tiergate ready at $url (edge: $(basename "$edge_model"), cloud: $cloud_name)" >&2

TIERGATE_BASE_URL="$url/v1" CLOUD_PRICE_IN=0.15 CLOUD_PRICE_OUT=0.60 node scripts/demo_workload.mjs

if ((serve)); then
  cat <<EOT

Tiergate is serving at $url (Ctrl-C to stop). Try:

  curl -s $url/v1/chat/completions -H 'Content-Type: application/json' \\
    -d '{"model": "auto", "messages": [{"role": "user", "content": "Say hello"}], "max_tokens": 32}'

Also: $url/v1/models  $url/readyz  $url/metrics
EOT
  wait "${tg_pids[-1]}"
fi
