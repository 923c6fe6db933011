// Streams chat completions from an OpenAI-compatible URL and reports timings.
// Used by the benchmarks; prints one JSON object.
//
//   node stream_client.mjs throughput URL MODEL PROMPT_WORDS MAX_TOKENS
//       one streamed request: time to first token, decode tokens/s, prompt tokens
//       (MAX_TOKENS 1 measures prefill: the time to the only token)
//   node stream_client.mjs latency URL_A URL_B MODEL N CONCURRENCY MAX_TOKENS
//       N streamed requests to each URL, interleaved A/B; p50/p99 latency and requests/s
const [mode, ...args] = process.argv.slice(2);

async function streamOnce(url, model, content, maxTokens) {
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
  const prompt = Array.from({ length: Number(words) }, (_, i) => `word${i % 50}`).join(" ");
  const r = await streamOnce(url, model, prompt, Number(maxTokens));
  const n = r.usage.completion_tokens;
  const decodeTps = (n - 1) / ((r.last - r.first) / 1000);
  console.log(JSON.stringify({
    prompt_tokens: r.usage.prompt_tokens, completion_tokens: n,
    ttft_ms: r.first - r.t0, decode_tps: decodeTps, total_ms: r.end - r.t0,
  }));
} else if (mode === "latency") {
  const [urlA, urlB, model, nStr, concStr, maxTokens] = args;
  const n = Number(nStr), conc = Number(concStr);
  const lat = { a: [], b: [] };
  async function run(label, url, count) {
    const t0 = performance.now();
    let next = 0;
    const workers = Array.from({ length: conc }, async () => {
      while (next < count) {
        next++;
        const r = await streamOnce(url, model, "Hello there", Number(maxTokens));
        lat[label].push(r.end - r.t0);
      }
    });
    await Promise.all(workers);
    return count / ((performance.now() - t0) / 1000);
  }
  // Warm both paths, then alternate rounds so drift affects both equally.
  await run("a", urlA, 5); await run("b", urlB, 5);
  lat.a = []; lat.b = [];
  const rounds = 10, rps = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    rps.a.push(await run("a", urlA, n / rounds));
    rps.b.push(await run("b", urlB, n / rounds));
  }
  const summary = (xs) => { const s = [...xs].sort((x, y) => x - y); return { p50_ms: pct(s, 50), p99_ms: pct(s, 99), n: s.length }; };
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log(JSON.stringify({ a: { ...summary(lat.a), rps: mean(rps.a) }, b: { ...summary(lat.b), rps: mean(rps.b) } }));
}
