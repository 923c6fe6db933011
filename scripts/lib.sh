# Shell helpers shared by scripts/demo.sh, bench/*.sh and tests/sdk: start
# llama-server and tiergate on loopback ports and stop them on exit.
# Source it; it sets an EXIT trap that kills what it started. The start
# functions set tg_url (not printed: a $(...) subshell would lose the pid).

tg_pids=()
tg_cleanup() {
  for p in "${tg_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap tg_cleanup EXIT INT TERM

tg_free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# tg_start_llama_server BIN MODEL ALIAS LOG [extra args...]: sets tg_url once healthy
tg_start_llama_server() {
  local bin=$1 model=$2 alias=$3 log=$4 port
  shift 4
  port=$(tg_free_port)
  # --no-jinja: a synthetic model answers with random tokens, which
  # llama-server's Jinja chat formats may fail to parse (an error for a cut
  # UTF-8 sequence); the legacy templates pass them through as content.
  "$bin" -m "$model" --host 127.0.0.1 --port "$port" -a "$alias" --no-webui --no-warmup --no-jinja "$@" >"$log" 2>&1 &
  tg_pids+=($!)
  for _ in $(seq 1 1200); do
    curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && { tg_url="http://127.0.0.1:$port"; return 0; }
    sleep 0.1
  done
  echo "llama-server did not become healthy; its log ($log):" >&2
  tail -20 "$log" >&2
  return 1
}

# tg_start_tiergate BIN CONFIG LOG: sets tg_url once /readyz is 200
tg_start_tiergate() {
  local bin=$1 config=$2 log=$3 out url=""
  out="$log.stdout"
  "$bin" serve --config "$config" >"$out" 2>"$log" &
  tg_pids+=($!)
  for _ in $(seq 1 1200); do
    url=$(grep -o 'http://[^ ]*' "$out" 2>/dev/null | head -1 || true)
    if [[ -n "$url" ]] && curl -fs "$url/readyz" >/dev/null 2>&1; then
      tg_url=$url
      return 0
    fi
    sleep 0.1
  done
  echo "tiergate did not become ready; its log ($log):" >&2
  tail -20 "$log" >&2
  return 1
}
