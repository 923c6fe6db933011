// `tiergate variants build`: quantized variants of one checkpoint, fixed
// tiers and mixed precision under a size budget, activation-aware when a
// query log is given, with a manifest entry per variant (docs/compression.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "commands.h"
#include "tiergate/core/file_output.h"
#include "tiergate/engines/local/importance.h"
#include "tiergate/engines/local/mixed_precision.h"
#include "tiergate/engines/local/quantization.h"
#include "tiergate/fleet/byte_size.h"
#include "tiergate/fleet/manifest.h"
#include "variants_support.h"

namespace tiergate::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStateFormat = "tiergate-variants-build-state";
constexpr int kStateVersion = 1;
// min_memory_bytes before `variants eval` measures it: the file plus an f16
// KV cache of the edge engine's default context.
constexpr int kEstimateContextTokens = 4096;

struct BuildArgs {
  std::string checkpoint;
  std::vector<std::string> tiers;
  std::string queries;
  std::vector<std::string> budgets;
  bool compare_imatrix = false;
  std::string out;
  int threads = 0;
  int context = 512;
  int64_t imatrix_tokens = 8192;
};

// One file to produce.
struct PlannedVariant {
  QuantizationRecipe recipe;
  bool importance = false;
  std::string file;  // relative to the output directory
};

// What an earlier run of the same build finished: outputs are reused only
// for the same checkpoint, query log and recipe.
struct BuildState {
  std::string checkpoint_sha256;
  std::string queries_sha256;
  bool importance_done = false;
  std::map<std::string, std::pair<std::string, std::string>> done;  // file -> (recipe key, sha256)
};

std::string recipe_key(const PlannedVariant& v) {
  nlohmann::json j = {{"name", v.recipe.name}, {"ftype", v.recipe.ftype}, {"imatrix", v.importance},
                      {"tensor_types", v.recipe.tensor_types}};
  return j.dump();
}

BuildState read_state(const std::string& path) {
  BuildState state;
  std::ifstream in(path);
  if (!in) return state;
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  if (!j.is_object() || j.value("format", "") != kStateFormat || j.value("version", 0) != kStateVersion) return state;
  state.checkpoint_sha256 = j.value("checkpoint_sha256", "");
  state.queries_sha256 = j.value("queries_sha256", "");
  state.importance_done = j.value("importance_done", false);
  if (j.contains("done") && j["done"].is_object()) {
    for (const auto& [file, entry] : j["done"].items()) {
      if (entry.is_object()) state.done[file] = {entry.value("recipe", ""), entry.value("sha256", "")};
    }
  }
  return state;
}

Status write_state(const std::string& path, const BuildState& state) {
  nlohmann::json done = nlohmann::json::object();
  for (const auto& [file, entry] : state.done) done[file] = {{"recipe", entry.first}, {"sha256", entry.second}};
  const nlohmann::json j = {{"format", kStateFormat},
                            {"version", kStateVersion},
                            {"checkpoint_sha256", state.checkpoint_sha256},
                            {"queries_sha256", state.queries_sha256},
                            {"importance_done", state.importance_done},
                            {"done", done}};
  return write_file_atomically(path, j.dump(2));
}

// Temporary files of an interrupted run; never valid output.
void remove_stale_temporaries(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
  }
}

std::string describe_allocation(const BudgetAllocation& a) {
  std::map<std::string, int> per_type;
  for (const auto& [tensor, type] : a.recipe.tensor_types) ++per_type[type];
  std::string out;
  for (const auto& [type, n] : per_type) {
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " x " + type;
  }
  return out;
}

// The search's path: every step to a file, a summary on stderr.
Status report_search(const std::string& path, const BudgetAllocation& a, int64_t budget) {
  nlohmann::json steps = nlohmann::json::array();
  for (const SearchStep& s : a.path) {
    steps.push_back({{"tensor", s.tensor}, {"from", s.from}, {"to", s.to}, {"bytes", s.bytes}, {"error", s.error}});
  }
  const nlohmann::json j = {{"recipe", a.recipe.name},   {"budget_bytes", budget},
                            {"bytes", a.bytes},          {"estimated_error", a.error},
                            {"tensor_types", a.recipe.tensor_types}, {"path", steps}};
  std::cerr << "[" << a.recipe.name << "] search: " << a.path.size() << " upgrades";
  if (!a.path.empty()) {
    std::cerr << ", from " << format_bytes(static_cast<uint64_t>(a.path.front().bytes)) << " to "
              << format_bytes(static_cast<uint64_t>(a.bytes));
  }
  std::cerr << " (budget " << format_bytes(static_cast<uint64_t>(budget)) << "), estimated error "
            << a.error << "; " << describe_allocation(a) << "; path in " << path << "\n";
  return write_file_atomically(path, j.dump(2));
}

// Everything is checked and planned (the importance matrix and the budget
// searches included) before the first file is written, so bad input leaves
// nothing behind; after that each file is written atomically.
int run_build(const BuildArgs& args) {
  const std::string command = "variants build";
  auto info = read_checkpoint_info(args.checkpoint);
  if (!info.is_ok()) return fail(command, info.status().message());
  if (info->weight_type != "f16" && info->weight_type != "f32" && info->weight_type != "bf16") {
    return fail(command, args.checkpoint + " is already quantized (" + info->weight_type +
                             "): give the F16, BF16 or F32 checkpoint the variants should come from");
  }
  std::vector<QuantizationRecipe> recipes;
  std::set<std::string> seen;
  for (const std::string& tier : args.tiers) {
    auto recipe = parse_recipe(tier);
    if (!recipe.is_ok()) return fail(command, "--tiers: " + recipe.status().message());
    if (seen.insert(recipe->name).second) recipes.push_back(*recipe);
  }
  std::vector<int64_t> budgets;
  for (const std::string& text : args.budgets) {
    auto bytes = parse_byte_size(text);
    if (!bytes.is_ok()) return fail(command, "--budget: " + bytes.status().message());
    budgets.push_back(static_cast<int64_t>(*bytes));
  }
  if (recipes.empty() && budgets.empty()) return fail(command, "nothing to build: give --tiers or --budget");
  std::vector<std::vector<ChatMessage>> conversations;
  if (!args.queries.empty()) {
    auto log = load_query_log(args.queries);
    if (!log.is_ok()) return fail(command, "--queries: " + log.status().message());
    conversations = std::move(*log);
  }
  for (const auto& r : recipes) {
    if (recipe_requires_importance(r) && conversations.empty()) {
      return fail(command, "tier " + r.name + " needs an importance matrix: give --queries");
    }
  }

  std::error_code ec;
  const std::string state_path = (fs::path(args.out) / "build-state.json").string();
  const std::string importance_path = (fs::path(args.out) / "importance.json").string();

  std::cerr << "[checkpoint] " << info->name << ": " << info->parameters << " parameters, " << info->weight_type
            << "; hashing it\n";
  auto checkpoint_sha = sha256_file(args.checkpoint);
  if (!checkpoint_sha.is_ok()) return fail(command, checkpoint_sha.status().message());
  std::string queries_sha;
  if (!args.queries.empty()) {
    auto sha = sha256_file(args.queries);
    if (!sha.is_ok()) return fail(command, sha.status().message());
    queries_sha = *sha;
  }
  BuildState state = read_state(state_path);
  if (state.checkpoint_sha256 != *checkpoint_sha || state.queries_sha256 != queries_sha) {
    if (!state.done.empty()) std::cerr << "[resume] the checkpoint or query log changed: building everything again\n";
    state = BuildState{*checkpoint_sha, queries_sha, false, {}};
  }

  // The importance matrix, from the query log.
  std::optional<ImportanceMatrix> importance;
  bool importance_fresh = false;  // saved once the plan holds
  if (!conversations.empty()) {
    if (state.importance_done) {
      auto loaded = load_importance(importance_path);
      if (loaded.is_ok()) {
        importance = std::move(*loaded);
        std::cerr << "[importance] reused " << importance_path << " (" << importance->tokens << " tokens)\n";
      }
    }
    if (!importance) {
      ProgressLine progress("importance", "chunks");
      ImportanceParams p;
      p.context = args.context;
      p.max_tokens = args.imatrix_tokens;
      p.threads = args.threads;
      p.on_progress = [&](int done, int total) { progress.update(done, total); };
      auto computed = compute_importance(args.checkpoint, conversations, p);
      if (!computed.is_ok()) return fail(command, computed.status().message());
      importance = std::move(*computed);
      progress.finish("importance matrix of " + std::to_string(importance->columns.size()) + " tensors over " +
                      std::to_string(importance->tokens) + " tokens");
      importance_fresh = true;
    }
  }

  struct Search {
    std::string path;
    BudgetAllocation allocation;
    int64_t budget = 0;
  };
  std::vector<Search> searches;
  std::vector<PlannedVariant> planned;
  for (const auto& r : recipes) {
    const std::string stem = tier_file_stem(r.name);
    if (!importance || args.compare_imatrix) planned.push_back({r, false, stem + ".gguf"});
    if (importance) planned.push_back({r, true, stem + "-imat.gguf"});
  }
  if (!budgets.empty()) {
    ProgressLine progress("budget search", "tensors measured");
    CostParams cp;
    cp.threads = args.threads;
    cp.on_progress = [&](int done, int total) { progress.update(done, total); };
    auto costs = measure_tensor_costs(args.checkpoint, importance ? &*importance : nullptr, cp);
    if (!costs.is_ok()) return fail(command, costs.status().message());
    progress.finish("quantization error of " + std::to_string(costs->tensors.size()) + " tensors measured");
    for (int64_t budget : budgets) {
      auto allocation = allocate_budget(*costs, budget);
      if (!allocation.is_ok()) return fail(command, "--budget: " + allocation.status().message());
      const std::string stem = tier_file_stem(allocation->recipe.name) + (importance ? "-imat" : "");
      if (std::any_of(planned.begin(), planned.end(), [&](const PlannedVariant& v) { return v.file == stem + ".gguf"; })) {
        std::cerr << "[" << allocation->recipe.name << "] the same as an earlier --budget; built once\n";
        continue;
      }
      searches.push_back({(fs::path(args.out) / (stem + ".search.json")).string(), *allocation, budget});
      planned.push_back({allocation->recipe, importance.has_value(), stem + ".gguf"});
    }
  }

  // The plan holds: from here on files are written.
  fs::create_directories(args.out, ec);
  if (ec) return fail(command, "cannot create the output directory " + args.out + ": " + ec.message());
  remove_stale_temporaries(args.out);
  if (importance_fresh) {
    if (Status s = save_importance(importance_path, *importance); !s.is_ok()) return fail(command, s.message());
    state.importance_done = true;
    if (Status s = write_state(state_path, state); !s.is_ok()) return fail(command, s.message());
  }
  for (const auto& search : searches) {
    if (Status s = report_search(search.path, search.allocation, search.budget); !s.is_ok()) {
      return fail(command, s.message());
    }
  }

  // The variants, each written atomically and recorded as soon as it is done.
  Manifest manifest;
  const std::string manifest_path = (fs::path(args.out) / "manifest.json").string();
  // The manifest names the checkpoint as a file beside it: a link, made with
  // the first manifest, so a run that fails before that leaves nothing.
  const std::string base_link = "base.gguf";
  manifest.base = {info->name, base_link, *checkpoint_sha, static_cast<uint64_t>(fs::file_size(args.checkpoint))};
  for (const PlannedVariant& v : planned) {
    const std::string path = (fs::path(args.out) / v.file).string();
    const std::string key = recipe_key(v);
    std::string sha;
    auto previous = state.done.find(v.file);
    if (previous != state.done.end() && previous->second.first == key && fs::exists(path, ec)) {
      auto current = sha256_file(path);
      if (current.is_ok() && *current == previous->second.second) sha = *current;
    }
    if (!sha.empty()) {
      std::cerr << "[" << v.file << "] up to date (an earlier run built it), kept\n";
    } else {
      ProgressLine progress(v.file, "tensors");
      QuantizeParams qp;
      qp.threads = args.threads;
      qp.importance = v.importance ? &*importance : nullptr;
      qp.on_progress = [&](const QuantizeProgress& p) { progress.update(p.tensors_done, p.tensors_total); };
      if (Status s = quantize_checkpoint(args.checkpoint, path, v.recipe, qp); !s.is_ok()) {
        return fail(command, s.message());
      }
      auto digest = sha256_file(path);
      if (!digest.is_ok()) return fail(command, digest.status().message());
      sha = *digest;
      progress.finish(format_bytes(fs::file_size(path)));
      state.done[v.file] = {key, sha};
      if (Status s = write_state(state_path, state); !s.is_ok()) return fail(command, s.message());
    }
    VariantEntry entry;
    entry.id = info->name + "-" + v.file.substr(0, v.file.size() - std::string(".gguf").size());
    entry.base_id = info->name;
    entry.recipe = {v.recipe.name, v.recipe.ftype, v.importance, v.recipe.tensor_types};
    entry.file = v.file;
    entry.sha256 = sha;
    entry.size_bytes = fs::file_size(path);
    entry.min_memory_bytes = entry.size_bytes + static_cast<uint64_t>(info->kv_cache_bytes(kEstimateContextTokens));
    // ggml's CPU backend runs every type on any CPU (with scalar fallbacks);
    // eval measures how fast on this one.
    entry.requirements.backends = {"CPU"};
    manifest.variants.push_back(std::move(entry));
    // After every variant, so an interrupted run leaves a manifest of what is done.
    if (manifest.variants.size() == 1) {
      fs::remove(fs::path(args.out) / base_link, ec);
      fs::create_symlink(fs::absolute(args.checkpoint), fs::path(args.out) / base_link, ec);
      if (ec) return fail(command, "cannot link the checkpoint as " + base_link + " in " + args.out + ": " + ec.message());
    }
    if (Status s = write_manifest(manifest_path, manifest); !s.is_ok()) return fail(command, s.message());
  }

  std::cout << "variants of " << info->name << " in " << args.out << " (manifest " << manifest_path << "):\n";
  for (const VariantEntry& v : manifest.variants) {
    const double bits = 8.0 * double(v.size_bytes) / double(std::max<int64_t>(1, info->parameters));
    std::printf("  %-40s %10s  %5.2f bits/weight\n", v.file.c_str(), format_bytes(v.size_bytes).c_str(), bits);
  }
  std::cout << "next: tiergate variants eval --dir " << args.out << " --reference " << args.checkpoint
            << " --queries LOG.jsonl\n";
  return 0;
}

}  // namespace

void add_variants_commands(CLI::App& app, Runs& runs) {
  CLI::App* variants = app.add_subcommand(
      "variants", "Quantized variants of a checkpoint: build them, and measure them on your own queries.");
  variants->require_subcommand(1);
  add_variants_build_command(*variants, runs);
  add_variants_eval_commands(*variants, runs);
}

void add_variants_build_command(CLI::App& variants, Runs& runs) {
  auto args = std::make_shared<BuildArgs>();
  CLI::App* c = variants.add_subcommand(
      "build",
      "Quantize one F16/F32 checkpoint into the given tiers (activation-aware with --queries) and, with --budget, "
      "a mixed-precision variant per budget; writes the GGUF files and manifest.json into --out. An interrupted "
      "run resumes: finished variants are kept.");
  c->add_option("--checkpoint", args->checkpoint, "F16, BF16 or F32 GGUF to quantize")->required();
  c->add_option("--tiers", args->tiers,
                "comma-separated tiers: q8_0,q6_k,q5_k_m,q4_k_m,q3_k_m,q2_k,..., a BASE+GROUP=TYPE recipe such as "
                "q4_k_m+attn=q8_0, or a named recipe (mix_q4_attn_q8, mix_q3_io_q6)")
      ->delimiter(',');
  c->add_option("--queries", args->queries,
                "query log (JSONL of chat requests) for the importance matrix and the budget search");
  c->add_option("--budget", args->budgets, "size budget for a mixed-precision variant, e.g. 120M or 1.5G; repeatable")
      ->delimiter(',');
  c->add_flag("--compare-imatrix", args->compare_imatrix,
              "with --queries, also build each tier without the importance matrix");
  c->add_option("-o,--out", args->out, "output directory")->required();
  c->add_option("--threads", args->threads, "threads; 0 = all")->capture_default_str()->check(CLI::NonNegativeNumber);
  c->add_option("--context", args->context, "tokens per chunk of the query log")
      ->capture_default_str()
      ->check(CLI::Range(16, 8192));
  c->add_option("--imatrix-tokens", args->imatrix_tokens, "query-log tokens the importance matrix is computed on")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{16}, int64_t{1} << 30));
  runs[c] = [args] { return run_build(*args); };
}

}  // namespace tiergate::cli
