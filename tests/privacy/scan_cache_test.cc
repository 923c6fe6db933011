// The scan cache (privacy/scan_cache.h): the same spans as a fresh scan,
// found again without a scan, within its memory bound, least recently used
// out first; and scan_messages through it (egress.h).
#include "tiergate/privacy/scan_cache.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tiergate/privacy/egress.h"

namespace tiergate {
namespace {

constexpr ScanCache::Key kKey = {0x0123456789abcdefULL, 0xfedcba9876543210ULL};

// A tagger that knows "My name is <first> <last>." and "Call <first> <last>
// today.", trained in the test.
std::shared_ptr<const PiiTagger> small_tagger() {
  const std::vector<std::string> first = {"Anna", "Bruno", "Chiara", "Dmitri", "Elena", "Farid"};
  const std::vector<std::string> last = {"Takeda", "Okafor", "Lindqvist", "Moreau", "Novak", "Petrov"};
  std::vector<PiiExample> rows;
  for (size_t i = 0; i < 60; ++i) {
    const std::string name = first[i % first.size()] + " " + last[(i * 5 + 1) % last.size()];
    const std::string before = i % 2 == 0 ? "My name is " : "Call ";
    PiiExample e;
    e.text = before + name + (i % 2 == 0 ? "." : " today.");
    e.spans.push_back({PiiType::kPerson, static_cast<uint32_t>(before.size()),
                       static_cast<uint32_t>(before.size() + name.size())});
    rows.push_back(std::move(e));
  }
  TaggerOptions options;
  options.epochs = 4;
  options.buckets = 1u << 12;
  options.members = 1;
  return std::make_shared<const PiiTagger>(PiiTagger::train(rows, options));
}

std::vector<PiiSpan> fresh_scan(const std::string& text, const PiiTagger* tagger) {
  std::vector<PiiSpan> spans;
  find_pii(text, tagger, spans);
  return spans;
}

TEST(ScanCache, FindsTheSameSpansAgainWithoutAScan) {
  const auto tagger = small_tagger();
  ScanCache cache(tagger, 1 << 20, kKey);
  const std::string text = "My name is Anna Okafor. Mail anna@example.com or call +44 20 7946 0958.";
  const std::vector<PiiSpan> expected = fresh_scan(text, tagger.get());
  ASSERT_GE(expected.size(), 3u);  // the name, the address and the number
  std::vector<PiiSpan> first, second;
  EXPECT_FALSE(cache.find_pii(text, first));
  EXPECT_TRUE(cache.find_pii(text, second));
  EXPECT_EQ(first, expected);
  EXPECT_EQ(second, expected);
  const ScanCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.entries, 1u);
  EXPECT_EQ(stats.bytes, ScanCache::entry_bytes(expected.size()));
}

TEST(ScanCache, AppendsAfterWhatTheCallerHolds) {
  ScanCache cache(nullptr, 1 << 20, kKey);
  const std::string text = "write to bob@example.org";
  std::vector<PiiSpan> out = {{PiiType::kPerson, 0, 1}};
  cache.find_pii(text, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(cache.find_pii(text, out));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], (PiiSpan{PiiType::kPerson, 0, 1}));
  EXPECT_EQ(out[1], out[2]);
  EXPECT_EQ(out[1].type, PiiType::kEmailAddress);
}

TEST(ScanCache, AnotherByteIsAnotherMessage) {
  ScanCache cache(nullptr, 1 << 20, kKey);
  std::vector<PiiSpan> spans;
  cache.find_pii("card 4111 1111 1111 1111", spans);
  spans.clear();
  EXPECT_FALSE(cache.find_pii("card 4111 1111 1111 1112", spans));
  EXPECT_EQ(spans, fresh_scan("card 4111 1111 1111 1112", nullptr));
  spans.clear();
  EXPECT_FALSE(cache.find_pii("card 4111 1111 1111 1111 ", spans));
  EXPECT_EQ(cache.stats().entries, 3u);
}

TEST(ScanCache, ACallerFindsOnlyWhatItsOwnScopeScanned) {
  ScanCache cache(nullptr, 1 << 20, kKey);
  const std::string text = "my card is 4111 1111 1111 1111";
  std::vector<PiiSpan> spans;
  EXPECT_FALSE(cache.find_pii(text, spans, "sk-alice"));
  EXPECT_FALSE(cache.find_pii(text, spans, "sk-bob"));
  EXPECT_FALSE(cache.find_pii(text, spans));
  EXPECT_TRUE(cache.find_pii(text, spans, "sk-alice"));
  EXPECT_TRUE(cache.find_pii(text, spans, "sk-bob"));
  EXPECT_EQ(cache.stats().entries, 3u);
  ASSERT_EQ(spans.size(), 5u);
  for (const PiiSpan& s : spans) EXPECT_EQ(s, spans[0]);
}

TEST(ScanCache, StaysWithinItsMemoryAndDropsTheLeastRecentlyUsedFirst) {
  // Room for ten entries of one span each.
  const size_t capacity = 10 * ScanCache::entry_bytes(1);
  ScanCache cache(nullptr, capacity, kKey);
  auto message = [](int i) {
    std::string m = "mail user";
    m += std::to_string(i);
    m += "@example.com";
    return m;
  };
  std::vector<PiiSpan> spans;
  for (int i = 0; i < 10; ++i) cache.find_pii(message(i), spans);
  EXPECT_EQ(cache.stats().entries, 10u);
  EXPECT_TRUE(cache.find_pii(message(0), spans));  // 0 is now the most recently used, 1 the least
  for (int i = 10; i < 15; ++i) cache.find_pii(message(i), spans);
  const ScanCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.entries, 10u);
  EXPECT_LE(stats.bytes, capacity);
  EXPECT_TRUE(cache.find_pii(message(0), spans));
  EXPECT_FALSE(cache.find_pii(message(1), spans));
  EXPECT_TRUE(cache.find_pii(message(14), spans));
}

TEST(ScanCache, KeepsNoEntryOfMoreThanAQuarterOfItsMemory) {
  ScanCache cache(nullptr, 8 * ScanCache::entry_bytes(1), kKey);
  std::string many;
  for (int i = 0; i < 40; ++i) {
    many += 'a';  // appended piece by piece (GCC 12 warns, wrongly, on chained string +)
    many += std::to_string(i);
    many += "@example.com ";
  }
  std::vector<PiiSpan> spans;
  cache.find_pii(many, spans);
  EXPECT_EQ(spans.size(), 40u);
  EXPECT_FALSE(cache.find_pii(many, spans));
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ScanCache, WithoutMemoryScansEveryTime) {
  ScanCache cache(nullptr, 0, kKey);
  std::vector<PiiSpan> spans;
  EXPECT_FALSE(cache.find_pii("bob@example.org", spans));
  EXPECT_FALSE(cache.find_pii("bob@example.org", spans));
  EXPECT_EQ(spans.size(), 2u);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ScanCache, KeepsNoScanThatWasStopped) {
  const auto tagger = small_tagger();
  ScanCache cache(tagger, 1 << 20, kKey);
  const std::string text = "Call Elena Novak today.";
  const ScanCache::Scope scope = cache.scope("");
  std::vector<PiiSpan> spans;
  EXPECT_EQ(cache.scan(text, spans, scope, [] { return true; }), ScanOutcome::kStopped);
  EXPECT_EQ(cache.stats().entries, 0u);
  spans.clear();
  EXPECT_EQ(cache.scan(text, spans, scope, [] { return false; }), ScanOutcome::kScanned);
  EXPECT_EQ(spans, fresh_scan(text, tagger.get()));
  spans.clear();
  // Spans kept are whole: a stop asks nothing of them.
  EXPECT_EQ(cache.scan(text, spans, scope, [] { return true; }), ScanOutcome::kCached);
  EXPECT_EQ(spans, fresh_scan(text, tagger.get()));
}

TEST(ScanCache, ThreadsShareItAndEachGetsTheSpansOfAFreshScan) {
  const auto tagger = small_tagger();
  ScanCache cache(tagger, 64 * ScanCache::entry_bytes(4), kKey);
  std::vector<std::string> texts;
  for (int i = 0; i < 200; ++i) {
    std::string text = "Call Elena Novak today, ticket ";
    text += std::to_string(i % 50);
    text += ", mail e";
    text += std::to_string(i % 70);
    text += "@example.com";
    texts.push_back(std::move(text));
  }
  std::vector<std::vector<PiiSpan>> expected;
  for (const std::string& t : texts) expected.push_back(fresh_scan(t, tagger.get()));
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<PiiSpan> spans;
      for (int round = 0; round < 3; ++round) {
        for (size_t i = 0; i < texts.size(); ++i) {
          const size_t k = (i * (t + 1) + round) % texts.size();
          spans.clear();
          cache.find_pii(texts[k], spans);
          if (spans != expected[k]) ++wrong[t];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  const ScanCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.hits + stats.misses, 4u * 3u * texts.size());
  EXPECT_GT(stats.hits, 0u);
  EXPECT_LE(stats.bytes, 64 * ScanCache::entry_bytes(4));
}

TEST(ScanMessages, ThroughTheCacheScansOnlyTheNewTurn) {
  const auto tagger = small_tagger();
  ScanCache cache(tagger, 1 << 20, kKey);
  std::vector<ChatMessage> conversation = {{Role::kSystem, "You answer briefly. Escalations go to ops@example.com."},
                                           {Role::kUser, "My name is Chiara Moreau."}};
  const PrivacyScan first = scan_messages(conversation, cache);
  EXPECT_EQ(first.cached_messages, 0u);
  conversation.push_back({Role::kAssistant, "Hello Chiara, how can I help?"});
  conversation.push_back({Role::kUser, "Call Bruno Lindqvist today."});
  const PrivacyScan second = scan_messages(conversation, cache);
  EXPECT_EQ(second.cached_messages, 2u);
  const PrivacyScan fresh = scan_messages(conversation, tagger.get());
  EXPECT_EQ(fresh.cached_messages, 0u);
  ASSERT_EQ(second.findings.size(), fresh.findings.size());
  for (size_t i = 0; i < fresh.findings.size(); ++i) {
    EXPECT_EQ(second.findings[i].type, fresh.findings[i].type);
    EXPECT_EQ(second.findings[i].message, fresh.findings[i].message);
    EXPECT_EQ(second.findings[i].begin, fresh.findings[i].begin);
    EXPECT_EQ(second.findings[i].end, fresh.findings[i].end);
  }
  std::map<std::string, int> counts = second.counts();
  EXPECT_EQ(counts, fresh.counts());
  EXPECT_GE(counts["PERSON"], 2);  // Chiara Moreau, Bruno Lindqvist
  EXPECT_EQ(counts["EMAIL_ADDRESS"], 1);
}

}  // namespace
}  // namespace tiergate
