// The official openai npm SDK against a running tiergate (TIERGATE_BASE_URL):
// chat on both tiers, streaming, logprobs and error handling, as an
// application would use it. Run by run_sdk_test.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";

const baseURL = process.env.TIERGATE_BASE_URL;
assert.ok(baseURL, "TIERGATE_BASE_URL must point at a running tiergate (see run_sdk_test.sh)");
const client = new OpenAI({ baseURL, apiKey: "unused-by-tiergate", maxRetries: 0, timeout: 120_000 });

test("chat on the edge tier, with the tier named in headers and body", async () => {
  const { data, response } = await client.chat.completions
    .create({ model: "edge", messages: [{ role: "user", content: "Hello" }], max_tokens: 8, temperature: 0 })
    .withResponse();
  assert.equal(response.headers.get("x-tiergate-tier"), "edge");
  assert.equal(data.object, "chat.completion");
  assert.equal(data.choices[0].message.role, "assistant");
  assert.equal(data.usage.completion_tokens, 8);
  assert.equal(data.tiergate.tier, "edge");
  assert.equal(typeof data.tiergate.cost_usd, "number");
});

test("chat on the cloud tier (llama-server upstream)", async () => {
  const { data, response } = await client.chat.completions
    .create({ model: "cloud", messages: [{ role: "user", content: "Hello" }], max_tokens: 8, temperature: 0 })
    .withResponse();
  assert.equal(response.headers.get("x-tiergate-tier"), "llama");
  assert.ok(data.usage.completion_tokens > 0);
  assert.equal(data.tiergate.route, "model:cloud");
});

test("streaming with include_usage matches the non-streamed answer", async () => {
  const params = { model: "edge", messages: [{ role: "user", content: "Tell me a story" }], max_tokens: 10, temperature: 0 };
  const whole = await client.chat.completions.create(params);
  const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
  let text = "";
  let usage = null;
  let finish = null;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      text += choice.delta?.content ?? "";
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  assert.ok(chunks >= 3, `expected several chunks, got ${chunks}`);
  assert.equal(text, whole.choices[0].message.content);
  assert.equal(finish, "length");
  assert.equal(usage.completion_tokens, 10);
});

test("logprobs in OpenAI's shape", async () => {
  const r = await client.chat.completions.create({
    model: "edge", messages: [{ role: "user", content: "Hi" }], max_tokens: 3, temperature: 0, logprobs: true, top_logprobs: 2,
  });
  const content = r.choices[0].logprobs.content;
  assert.equal(content.length, 3);
  for (const t of content) {
    assert.equal(typeof t.token, "string");
    assert.ok(t.logprob <= 0);
    assert.equal(t.top_logprobs.length, 2);
  }
});

test("models list", async () => {
  const ids = [];
  for await (const m of client.models.list()) ids.push(m.id);
  for (const id of ["auto", "edge", "cloud", "upstream-model"]) assert.ok(ids.includes(id), `${id} missing from ${ids}`);
});

test("errors surface as the SDK's typed errors", async () => {
  await assert.rejects(
    client.chat.completions.create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] }),
    (err) => err instanceof OpenAI.NotFoundError && err.status === 404 && err.code === "model_not_found",
  );
  await assert.rejects(
    client.chat.completions.create({ model: "edge", messages: [{ role: "user", content: "" }] }),
    (err) => err instanceof OpenAI.BadRequestError && err.param === "messages[0].content",
  );
  await assert.rejects(
    client.chat.completions.create({ model: "edge", messages: [{ role: "user", content: "x" }], max_tokens: 100000 }),
    (err) => err instanceof OpenAI.BadRequestError && err.code === "context_length_exceeded",
  );
});

test("aborting a stream mid-way cancels the generation and the gateway keeps serving", async () => {
  const metricsUrl = baseURL.replace(/\/v1\/?$/, "") + "/metrics";
  const cancelledCount = async () => {
    const text = await (await fetch(metricsUrl)).text();
    const m = text.match(/^tiergate_client_cancelled_total (\S+)$/m);
    return m ? Number(m[1]) : 0;
  };
  const before = await cancelledCount();
  const controller = new AbortController();
  const stream = await client.chat.completions.create(
    { model: "edge", messages: [{ role: "user", content: "Go on" }], max_tokens: 900, stream: true },
    { signal: controller.signal },
  );
  let seen = 0;
  try {
    for await (const _ of stream) {
      if (++seen === 3) {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    assert.ok(err instanceof OpenAI.APIUserAbortError || err.name === "AbortError", `unexpected error ${err}`);
  }
  assert.equal(seen, 3, "the stream must stop after the abort");
  let after = before;
  for (let i = 0; i < 200 && after === before; i++) {  // bounded polling, not a timing assertion
    await new Promise((r) => setTimeout(r, 50));
    after = await cancelledCount();
  }
  assert.equal(after, before + 1, "the gateway should count the cancelled request");
  const r = await client.chat.completions.create({ model: "edge", messages: [{ role: "user", content: "ok" }], max_tokens: 2 });
  assert.equal(r.usage.completion_tokens, 2);
});
