#include "tiergate/engines/local/local_engine.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "llama.h"
#include "llama_runtime.h"
#include "tiergate/engines/local/logprobs.h"
#include "tiergate/engines/local/prompt_format.h"
#include "tiergate/engines/local/stop_scanner.h"
#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

LocalEngineParams local_engine_default_params() { return {}; }

namespace {

enum class LoadState { kUnloaded, kLoading, kReady, kFailed };

// One request from submission to completion. The caller thread and the worker
// share it: fields under "shared" are guarded by mu.
struct Job {
  // Set before submission, then read-only.
  std::vector<llama_token> prompt;
  SamplingParams sampling;
  int max_new_tokens = 0;

  std::atomic<bool> cancel{false};  // set by the caller when the client is gone
  std::atomic<bool> decode_failed{false};  // set by the worker: llama_decode failed for it

  // shared
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Delta> deltas;
  bool done = false;
  Status status;
  FinishReason finish = FinishReason::kStop;
  int64_t completion_tokens = 0;

  void push(Delta d) {
    std::lock_guard lock(mu);
    deltas.push_back(std::move(d));
    cv.notify_all();
  }
  void complete(Status s, FinishReason reason, int64_t generated) {
    std::lock_guard lock(mu);
    done = true;
    status = std::move(s);
    finish = reason;
    completion_tokens = generated;
    cv.notify_all();
  }
};

// A sequence of the batch; owned by the worker thread.
struct Slot {
  std::shared_ptr<Job> job;  // null when free
  llama_seq_id seq = 0;
  size_t prompt_fed = 0;     // prompt tokens already decoded
  llama_pos n_past = 0;      // tokens in this sequence's KV cache
  llama_token pending_token = -1;  // sampled, to be decoded next step
  int batch_index = -1;      // index of this slot's output row in the current batch
  int generated = 0;
  llama_sampler* sampler = nullptr;
  std::optional<StopScanner> scanner;

  bool active() const { return job != nullptr; }
  bool prefilling() const { return job && prompt_fed < job->prompt.size(); }
};

llama_sampler* make_sampler(const SamplingParams& s) {
  llama_sampler* chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
  double temperature = s.temperature.value_or(1.0);
  if (temperature <= 0) {
    llama_sampler_chain_add(chain, llama_sampler_init_greedy());
    return chain;
  }
  if (s.top_k && *s.top_k > 0) llama_sampler_chain_add(chain, llama_sampler_init_top_k(*s.top_k));
  if (s.top_p && *s.top_p < 1.0) {
    llama_sampler_chain_add(chain, llama_sampler_init_top_p(static_cast<float>(*s.top_p), 1));
  }
  if (s.min_p && *s.min_p > 0) {
    llama_sampler_chain_add(chain, llama_sampler_init_min_p(static_cast<float>(*s.min_p), 1));
  }
  llama_sampler_chain_add(chain, llama_sampler_init_temp(static_cast<float>(temperature)));
  llama_sampler_chain_add(chain, llama_sampler_init_dist(s.seed.value_or(LLAMA_DEFAULT_SEED)));
  return chain;
}

}  // namespace

struct LocalEngine::Impl {
  explicit Impl(LocalEngineParams p) : params(std::move(p)) {
    model_id = std::filesystem::path(params.model_path).filename().string();
  }

  LocalEngineParams params;
  std::string model_id;

  // Guarded by mu.
  mutable std::mutex mu;
  std::condition_variable worker_cv;  // new work, a cancellation, or stop
  std::condition_variable load_cv;    // left LOADING
  LoadState state = LoadState::kUnloaded;
  std::string load_error;
  Status load_status;
  std::deque<std::shared_ptr<Job>> pending;
  bool stopping = false;
  int slots_busy = 0;

  std::atomic<int64_t> prompt_tokens{0};
  std::atomic<int64_t> generated_tokens{0};
  std::atomic<int64_t> cancelled_requests{0};

  // Owned by the worker after load; model and vocab are read by callers once READY.
  llama_model* model = nullptr;
  const llama_vocab* vocab = nullptr;
  llama_context* ctx = nullptr;
  CpuThreadpool threadpool;  // after ctx is freed

  // Health from recent decode failures; guarded by mu.
  CircuitBreaker breaker{params.breaker};
  SystemClock system_clock;
  SteadyTime now() const { return params.clock != nullptr ? params.clock->now() : system_clock.now(); }
  // Why the breaker turns requests away, for health() and generate(). Needs mu.
  std::string decode_failing() const {
    return "edge decode failing: " + std::to_string(breaker.consecutive_failures()) +
           " requests in a row failed (last: " + breaker.last_error() + ")";
  }
  std::vector<Slot> slots;
  std::thread worker;

  void run();
  Status load();
  void step(llama_batch& batch);
  void sample_slot(Slot& slot);
  void finish_slot(Slot& slot, Status status, FinishReason reason);
  void unload();
};

Status LocalEngine::Impl::load() {
  if (Status s = check_gguf_file(params.model_path, "edge model file", "(set edge.model to a GGUF file)");
      !s.is_ok()) {
    return s;
  }
  init_llama_backend_once();
  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_MMAP;
  mp.n_gpu_layers = 0;
  model = llama_model_load_from_file(params.model_path.c_str(), mp);
  if (model == nullptr) {
    return invalid_argument("llama.cpp could not load the edge model (corrupt or unsupported GGUF): " +
                            params.model_path);
  }
  vocab = llama_model_get_vocab(model);

  const int threads = resolve_threads(params.threads);
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(params.context * params.parallel);
  cp.n_batch = static_cast<uint32_t>(params.batch);
  cp.n_ubatch = static_cast<uint32_t>(params.batch);
  cp.n_seq_max = static_cast<uint32_t>(params.parallel);
  cp.kv_unified = false;  // each sequence gets its own `context` cells
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.no_perf = true;
  ctx = llama_init_from_model(model, cp);
  if (ctx == nullptr) {
    llama_model_free(model);
    model = nullptr;
    return resource_exhausted("llama.cpp could not create a context of " + std::to_string(cp.n_ctx) +
                              " tokens for the edge model (out of memory? lower edge.context or edge.parallel)");
  }
  threadpool.attach(ctx, threads);
  slots.resize(static_cast<size_t>(params.parallel));
  for (size_t i = 0; i < slots.size(); ++i) slots[i].seq = static_cast<llama_seq_id>(i);
  return Status::ok();
}

void LocalEngine::Impl::unload() {
  for (auto& slot : slots) {
    if (slot.active()) finish_slot(slot, unavailable("edge engine stopped"), FinishReason::kStop);
  }
  if (ctx) llama_free(ctx);
  threadpool.release();
  if (model) llama_model_free(model);
  ctx = nullptr;
  model = nullptr;
}

void LocalEngine::Impl::finish_slot(Slot& slot, Status status, FinishReason reason) {
  if (!status.is_ok() && status.code() == StatusCode::kCancelled) ++cancelled_requests;
  llama_memory_seq_rm(llama_get_memory(ctx), slot.seq, -1, -1);
  if (slot.sampler) llama_sampler_free(slot.sampler);
  auto job = std::move(slot.job);
  int generated = slot.generated;
  const llama_seq_id seq = slot.seq;
  slot = Slot();
  slot.seq = seq;
  {
    std::lock_guard lock(mu);
    --slots_busy;
  }
  job->complete(std::move(status), reason, generated);
}

void LocalEngine::Impl::sample_slot(Slot& slot) {
  Job& job = *slot.job;
  const llama_token token = llama_sampler_sample(slot.sampler, ctx, slot.batch_index);
  ++slot.generated;
  ++generated_tokens;

  if (llama_vocab_is_eog(vocab, token)) {
    if (std::string rest = slot.scanner->flush(); !rest.empty()) job.push(Delta{std::move(rest), {}});
    finish_slot(slot, Status::ok(), FinishReason::kStop);
    return;
  }

  char buf[256];
  int32_t n = llama_token_to_piece(vocab, token, buf, sizeof buf, 0, false);
  std::string piece = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  Delta delta;
  if (job.sampling.logprobs) {
    delta.logprobs.push_back(token_logprob(llama_get_logits_ith(ctx, slot.batch_index),
                                           llama_vocab_n_tokens(vocab), token, job.sampling.top_logprobs,
                                           [this](int32_t t) { return token_piece(vocab, t); }));
  }
  delta.text = slot.scanner->push(piece);
  bool stopped = slot.scanner->stopped();
  bool at_limit = slot.generated >= job.max_new_tokens;
  if (at_limit && !stopped) delta.text += slot.scanner->flush();
  if (!delta.text.empty() || !delta.logprobs.empty()) job.push(std::move(delta));

  if (stopped) {
    finish_slot(slot, Status::ok(), FinishReason::kStop);
  } else if (at_limit) {
    finish_slot(slot, Status::ok(), FinishReason::kLength);
  } else {
    slot.pending_token = token;
  }
}

void LocalEngine::Impl::step(llama_batch& batch) {
  batch.n_tokens = 0;
  auto add = [&](llama_token t, llama_pos pos, llama_seq_id seq, bool output) {
    int i = batch.n_tokens++;
    batch.token[i] = t;
    batch.pos[i] = pos;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = seq;
    batch.logits[i] = output ? 1 : 0;
    return i;
  };
  // Sequences that are generating go first, one token each, so a long prompt
  // arriving does not stall the streams already running.
  for (auto& slot : slots) {
    slot.batch_index = -1;
    if (slot.active() && !slot.prefilling()) {
      slot.batch_index = add(slot.pending_token, slot.n_past++, slot.seq, true);
    }
  }
  for (auto& slot : slots) {
    if (!slot.prefilling()) continue;
    const auto& prompt = slot.job->prompt;
    while (slot.prompt_fed < prompt.size() && batch.n_tokens < params.batch) {
      bool last = slot.prompt_fed + 1 == prompt.size();
      int i = add(prompt[slot.prompt_fed++], slot.n_past++, slot.seq, last);
      if (last) slot.batch_index = i;
    }
  }
  if (batch.n_tokens == 0) return;

  int32_t rc = params.decode_fault ? params.decode_fault() : 0;
  if (rc == 0) rc = llama_decode(ctx, batch);
  if (rc != 0) {
    // 1: no KV space; 2: aborted; <0: error. The KV state of the sequences in
    // this batch is unknown, so all of them fail.
    for (auto& slot : slots) {
      if (slot.active() && (slot.batch_index >= 0 || slot.prompt_fed > 0)) {
        slot.job->decode_failed = true;
        finish_slot(slot, unavailable("edge decode failed (llama_decode returned " + std::to_string(rc) + ")"),
                    FinishReason::kStop);
      }
    }
    return;
  }
  for (auto& slot : slots) {
    if (slot.active() && slot.batch_index >= 0) sample_slot(slot);
  }
}

void LocalEngine::Impl::run() {
  Status loaded = load();
  {
    std::lock_guard lock(mu);
    load_status = loaded;
    state = loaded.is_ok() ? LoadState::kReady : LoadState::kFailed;
    load_error = loaded.is_ok() ? "" : loaded.message();
    load_cv.notify_all();
  }
  if (!loaded.is_ok()) return;

  llama_batch batch = llama_batch_init(params.batch + params.parallel, 0, 1);
  while (true) {
    std::vector<std::shared_ptr<Job>> admitted;
    {
      std::unique_lock lock(mu);
      auto has_active = [&] {
        return std::any_of(slots.begin(), slots.end(), [](const Slot& s) { return s.active(); });
      };
      auto has_free = [&] { return slots_busy < static_cast<int>(slots.size()); };
      worker_cv.wait(lock, [&] { return stopping || has_active() || (!pending.empty() && has_free()); });
      if (stopping) break;
      while (!pending.empty() && has_free()) {
        admitted.push_back(std::move(pending.front()));
        pending.pop_front();
        ++slots_busy;
      }
    }
    for (auto& job : admitted) {
      auto free_slot = std::find_if(slots.begin(), slots.end(), [](const Slot& s) { return !s.active(); });
      free_slot->job = std::move(job);
      free_slot->sampler = make_sampler(free_slot->job->sampling);
      free_slot->scanner.emplace(free_slot->job->sampling.stop);
      prompt_tokens += static_cast<int64_t>(free_slot->job->prompt.size());
    }
    for (auto& slot : slots) {
      if (slot.active() && slot.job->cancel.load()) {
        finish_slot(slot, cancelled("client went away"), FinishReason::kStop);
      }
    }
    step(batch);
  }
  llama_batch_free(batch);

  std::deque<std::shared_ptr<Job>> left;
  {
    std::lock_guard lock(mu);
    left.swap(pending);
  }
  for (auto& job : left) job->complete(unavailable("edge engine stopped"), FinishReason::kStop, 0);
  unload();
}

LocalEngine::LocalEngine(LocalEngineParams params) : impl_(std::make_unique<Impl>(std::move(params))) {}

LocalEngine::~LocalEngine() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
    impl_->worker_cv.notify_all();
  }
  if (impl_->worker.joinable()) impl_->worker.join();
}

void LocalEngine::start() {
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->state != LoadState::kUnloaded) return;
    impl_->state = LoadState::kLoading;
  }
  impl_->worker = std::thread([this] { impl_->run(); });
}

Status LocalEngine::wait_until_loaded() {
  std::unique_lock lock(impl_->mu);
  impl_->load_cv.wait(lock, [&] { return impl_->state == LoadState::kReady || impl_->state == LoadState::kFailed; });
  return impl_->load_status;
}

TierHealth LocalEngine::health() const {
  std::lock_guard lock(impl_->mu);
  switch (impl_->state) {
    case LoadState::kUnloaded: return {TierState::kUnavailable, "edge model not started"};
    case LoadState::kLoading: return {TierState::kLoading, "loading " + impl_->params.model_path};
    case LoadState::kReady: {
      const SteadyTime now = impl_->now();
      if (impl_->breaker.would_admit(now)) return {TierState::kReady, impl_->model_id};
      return {TierState::kUnavailable, impl_->decode_failing(), impl_->breaker.retry_at()};
    }
    case LoadState::kFailed: return {TierState::kUnavailable, impl_->load_error};
  }
  return {TierState::kUnavailable, "unknown"};
}

TierLoad LocalEngine::load() const {
  TierLoad load;
  std::lock_guard lock(impl_->mu);
  load.slots_busy = impl_->slots_busy;
  load.queue_depth = static_cast<int>(impl_->pending.size());
  return load;
}

LocalEngineStats LocalEngine::stats() const {
  LocalEngineStats s;
  {
    std::lock_guard lock(impl_->mu);
    s.slots_total = impl_->params.parallel;
    s.slots_busy = impl_->slots_busy;
    s.queue_depth = static_cast<int>(impl_->pending.size());
  }
  s.prompt_tokens = impl_->prompt_tokens.load();
  s.generated_tokens = impl_->generated_tokens.load();
  s.cancelled_requests = impl_->cancelled_requests.load();
  return s;
}

const std::string& LocalEngine::model_id() const { return impl_->model_id; }
int LocalEngine::context_per_sequence() const { return impl_->params.context; }

StatusOr<Completion> LocalEngine::generate(const ChatRequest& request, const std::string& /*model*/,
                                           TokenSink& sink) {
  Impl& im = *impl_;
  {
    std::lock_guard lock(im.mu);
    if (im.state != LoadState::kReady) {
      return unavailable("edge model not loaded: " + (im.state == LoadState::kFailed    ? im.load_error
                                                       : im.state == LoadState::kLoading ? "loading " + im.params.model_path
                                                                                          : std::string("not started")));
    }
  }
  FormattedPrompt prompt = format_prompt(im.model, request.messages);
  auto job = std::make_shared<Job>();
  job->prompt = tokenize(im.vocab, prompt.text, /*parse_special=*/prompt.uses_template);
  job->sampling = request.sampling;
  const int n_prompt = static_cast<int>(job->prompt.size());
  if (n_prompt == 0) return invalid_argument("the conversation has no text to generate from");
  const int context = im.params.context;
  if (request.sampling.max_tokens) {
    if (n_prompt + *request.sampling.max_tokens > context) {
      return invalid_argument("context_length_exceeded: the prompt has " + std::to_string(n_prompt) +
                              " tokens and max_tokens is " + std::to_string(*request.sampling.max_tokens) +
                              ", more than the edge context of " + std::to_string(context) +
                              " tokens; shorten the conversation or lower max_tokens");
    }
    job->max_new_tokens = *request.sampling.max_tokens;
  } else {
    if (n_prompt >= context) {
      return invalid_argument("context_length_exceeded: the prompt has " + std::to_string(n_prompt) +
                              " tokens, the edge context holds " + std::to_string(context) +
                              "; shorten the conversation");
    }
    job->max_new_tokens = context - n_prompt;
  }
  if (job->max_new_tokens <= 0) return invalid_argument("max_tokens must be at least 1");

  CircuitBreaker::Admission admission = CircuitBreaker::Admission::kAllowed;
  {
    std::lock_guard lock(im.mu);
    // Capacity: every sequence busy and the wait queue full.
    if (static_cast<int>(im.pending.size()) + im.slots_busy >= im.params.parallel + im.params.queue) {
      return resource_exhausted("edge queue is full (" + std::to_string(im.pending.size()) +
                                " requests waiting); retry later");
    }
    const SteadyTime now = im.now();
    admission = im.breaker.admit(now);
    if (admission == CircuitBreaker::Admission::kRejected) {
      const double wait_s = std::max(0.0, seconds_between(now, im.breaker.retry_at().value_or(now)));
      return unavailable(im.decode_failing() + "; tried again in " +
                         std::to_string(static_cast<int>(std::ceil(wait_s))) + " s");
    }
    im.pending.push_back(job);
    im.worker_cv.notify_all();
  }
  // The breaker learns how the request ended: a failed decode counts against
  // the edge, an answer for it, anything else (cancelled) neither.
  auto report = [&](const Status& status) {
    std::lock_guard lock(im.mu);
    if (job->decode_failed) {
      im.breaker.record_failure(im.now(), status.message(), admission);
    } else if (status.is_ok()) {
      im.breaker.record_success(admission);
    } else {
      im.breaker.record_neither(admission);
    }
  };

  Completion out;
  out.model = im.model_id;
  out.usage.prompt_tokens = n_prompt;
  auto request_cancel = [&] {
    job->cancel = true;
    {
      std::lock_guard lock(im.mu);
      // Still queued: take it out here; running: the worker frees the slot.
      auto it = std::find(im.pending.begin(), im.pending.end(), job);
      if (it != im.pending.end()) {
        im.pending.erase(it);
        job->complete(cancelled("client went away"), FinishReason::kStop, 0);
      }
      im.worker_cv.notify_all();
    }
  };
  bool cancel_sent = false;
  while (true) {
    std::deque<Delta> ready;
    bool done = false;
    {
      std::unique_lock lock(job->mu);
      job->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return job->done || !job->deltas.empty(); });
      ready.swap(job->deltas);
      done = job->done;
    }
    for (auto& d : ready) {
      if (cancel_sent) break;
      out.text += d.text;
      out.logprobs.insert(out.logprobs.end(), d.logprobs.begin(), d.logprobs.end());
      if (!sink.on_delta(d)) {
        request_cancel();
        cancel_sent = true;
      }
    }
    if (done) break;
    if (!cancel_sent && sink.cancelled()) {
      request_cancel();
      cancel_sent = true;
    }
  }
  Status final_status;
  {
    std::lock_guard lock(job->mu);
    final_status = cancel_sent ? cancelled("client went away") : job->status;
    out.finish = job->finish;
    out.usage.completion_tokens = job->completion_tokens;
  }
  report(final_status);
  if (!final_status.is_ok()) return final_status;
  return out;
}

}  // namespace tiergate
