// The demo's mixed workload, sent through the official openai SDK to a running
// tiergate (TIERGATE_BASE_URL), and the routing report it prints.
// CLOUD_PRICE_IN / CLOUD_PRICE_OUT (USD per million tokens) price the
// all-cloud baseline: every request answered by the cloud tier.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.env.TIERGATE_BASE_URL, apiKey: "demo", maxRetries: 0 });
const priceIn = Number(process.env.CLOUD_PRICE_IN ?? 0.15);
const priceOut = Number(process.env.CLOUD_PRICE_OUT ?? 0.6);

const longDoc = Array.from({ length: 60 }, (_, i) =>
  `Section ${i + 1}: the quarterly figures for region ${i % 7} show steady demand, stable costs and a small rise in returns.`,
).join(" ");

// Everyday traffic: mostly short requests an edge model handles, some long or
// hard ones that deserve the cloud.
const workload = [
  { name: "greeting", content: "Hi! How are you today?" },
  { name: "rewrite", content: "Rewrite politely: send me the file now." },
  { name: "short fact", content: "What is the capital of France?" },
  { name: "summarise report", content: `Summarise this report in three bullet points: ${longDoc}` },
  { name: "proof", content: "Prove that the square root of 2 is irrational." },
  { name: "classify", content: "Is this review positive or negative: 'great battery, awful screen'?" },
  { name: "stream story", content: "Tell me a short story about a robot.", stream: true },
  { name: "code", content: "Write code to implement a thread-safe LRU cache in C++." },
  { name: "translate word", content: "How do you say 'thank you' in Spanish?" },
  { name: "reasoning", content: "Explain why the sky is blue, step by step." },
  { name: "small talk", content: "Recommend a name for a cat." },
  { name: "stream recipe", content: "Give me a quick pancake recipe.", stream: true },
  // Asked of the cloud by name: the privacy policy (docs/privacy.md) redacts
  // the e-mail address before it leaves, and keeps the API key on the device.
  { name: "e-mail, cloud", model: "cloud", content: "Draft a short reply to jane.roe@example.com about her invoice." },
  { name: "api key, cloud", model: "cloud", content: "Why is sk-proj-4fJ9xQ2LmZ8vT1wR6yU3pK0aB5nC7dE2 rejected?" },
];

function pad(s, n) {
  s = String(s);
  return s.length >= n ? s.slice(0, n) : s + " ".repeat(n - s.length);
}

const rows = [];
const failures = [];
for (const item of workload) {
  // (A fixed seed: the synthetic models' answers, and so the report, are the
  // same on every run.)
  const params = {
    model: item.model ?? "auto",
    messages: [{ role: "user", content: item.content }],
    max_tokens: 48,
    temperature: 0.7,
    seed: 7,
  };
  const start = performance.now();
  let tier, route, usage, cost;
  try {
    if (item.stream) {
      const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
      for await (const chunk of stream) {
        if (chunk.tiergate) ({ tier, route, cost_usd: cost } = chunk.tiergate);
        if (chunk.usage) usage = chunk.usage;
      }
    } else {
      const r = await client.chat.completions.create(params);
      ({ tier, route, cost_usd: cost } = r.tiergate);
      usage = r.usage;
    }
  } catch (error) {
    // A request the gateway answered with an error stays in the report, and
    // the rest of the workload still runs.
    failures.push(`${item.name}: ${error.status ?? ""} ${error.message}`);
    rows.push({ name: item.name, stream: !!item.stream, tier: "error", route: String(error.status ?? "failed"),
                latency: performance.now() - start, usage: { prompt_tokens: 0, completion_tokens: 0 }, cost: 0, cloudCost: 0 });
    continue;
  }
  const latency = performance.now() - start;
  const cloudCost = (usage.prompt_tokens * priceIn + usage.completion_tokens * priceOut) / 1e6;
  rows.push({ name: item.name, stream: !!item.stream, tier, route, latency, usage, cost, cloudCost });
}

console.log("\nTiergate routing report");
console.log("=".repeat(138));
console.log(
  `${pad("request", 18)}${pad("mode", 8)}${pad("tier", 13)}${pad("route", 54)}${pad("latency", 11)}${pad("tokens in/out", 15)}${pad("cost USD", 12)}all-cloud USD`,
);
console.log("-".repeat(138));
for (const r of rows) {
  console.log(
    `${pad(r.name, 18)}${pad(r.stream ? "stream" : "json", 8)}${pad(r.tier, 13)}${pad(r.route, 54)}` +
      `${pad(r.latency.toFixed(0) + " ms", 11)}${pad(`${r.usage.prompt_tokens}/${r.usage.completion_tokens}`, 15)}` +
      `${pad(r.cost.toFixed(7), 12)}${r.cloudCost.toFixed(7)}`,
  );
}
const total = rows.reduce((s, r) => s + r.cost, 0);
const allCloud = rows.reduce((s, r) => s + r.cloudCost, 0);
const edgeShare = rows.filter((r) => r.tier === "edge").length / rows.length;
console.log("-".repeat(138));
console.log(`requests: ${rows.length}   answered on the edge: ${(edgeShare * 100).toFixed(0)}%`);
console.log(`cost: ${total.toFixed(7)} USD   all-cloud: ${allCloud.toFixed(7)} USD   ` +
  `saved: ${allCloud > 0 ? ((1 - total / allCloud) * 100).toFixed(1) : "0.0"}%`);
console.log("(all-cloud prices every request's tokens at the cloud tier's price)");
if (failures.length > 0) {
  console.log(`\nfailed: ${failures.length} request(s)`);
  for (const f of failures) console.log(`  ${f}`);
  process.exitCode = 1;
}
