// Streams chat completions from an OpenAI-compatible URL and reports timings.
// Used by the benchmarks; prints one JSON object.
//
//   node stream_client.mjs throughput URL MODEL PROMPT_WORDS MAX_TOKENS
//       one streamed request: time to first token, decode tokens/s, prompt tokens
//       (MAX_TOKENS 1 measures prefill: the time to the only token)
// (Latency is measured by bench/stream_latency.cc, a thinner client.)
const [mode, ...args] = process.argv.slice(2);

// A server may close an idle keep-alive connection just as a request is sent
// on it (llama-server does under concurrency): that request is retried (up to 3 times) on
// a new connection, as HTTP clients do, and counted in `stale_retries`.
let staleRetries = 0;
async function streamOnce(url, model, content, maxTokens) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnceUnchecked(url, model, content, maxTokens);
    } catch (err) {
      if (attempt < 3 && (err.cause?.code ?? err.code) === "UND_ERR_SOCKET") {
        staleRetries++;
        continue;
      }
      throw new Error(`${url}: ${err.message}${err.cause ? ` (${err.cause.message})` : ""}`);
    }
  }
}

async function streamOnceUnchecked(url, model, content, maxTokens) {
  const t0 = performance.now();
  const res = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      model, messages: [{ role: "user", content }], max_tokens: maxTokens, temperature: 0,
      stream: true, stream_options: { include_usage: true },
    }),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buf = "", first = null, last = null, usage = null, pieces = 0;
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const event = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
      const j = JSON.parse(event.slice(6));
      if (j.usage) usage = j.usage;
      const c = j.choices?.[0]?.delta?.content;
      if (c) {
        const now = performance.now();
        if (first === null) first = now;
        last = now;
        pieces++;
      }
    }
  }
  return { t0, first, last, end: performance.now(), usage, pieces };
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

if (mode === "throughput") {
  const [url, model, words, maxTokens] = args;
  // The first fetch of a Node process loads and compiles its HTTP client
  // (tens to hundreds of milliseconds): do it before the clock starts.
  await (await fetch(`${url}/models`)).arrayBuffer();
  const prompt = Array.from({ length: Number(words) }, (_, i) => `word${i % 50}`).join(" ");
  const r = await streamOnce(url, model, prompt, Number(maxTokens));
  const n = r.usage.completion_tokens;
  const decodeTps = (n - 1) / ((r.last - r.first) / 1000);
  console.log(JSON.stringify({
    prompt_tokens: r.usage.prompt_tokens, completion_tokens: n,
    ttft_ms: r.first - r.t0, decode_tps: decodeTps, total_ms: r.end - r.t0,
  }));
} else {
  console.error("usage: node stream_client.mjs throughput URL MODEL PROMPT_WORDS MAX_TOKENS");
  process.exit(2);
}
