#include "tiergate/obs/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tiergate {
namespace {

using ::testing::HasSubstr;

TEST(MetricsTest, EmptyRegistryRendersNothing) {
  MetricsRegistry registry;
  EXPECT_EQ(registry.render(), "");
}

TEST(MetricsTest, CounterFamilyRendersChildrenInInsertionOrder) {
  MetricsRegistry registry;
  auto& requests = registry.counter_family(
      "tiergate_requests_total", "Chat completion requests by tier, route and outcome.",
      {"tier", "route", "status"});
  requests.with({"edge", "rule:short_prompt", "200"}).inc();
  requests.with({"cloud", "rule:keyword", "502"}).inc(2.5);
  requests.with({"edge", "rule:short_prompt", "200"}).inc();
  EXPECT_EQ(registry.render(),
            "# HELP tiergate_requests_total Chat completion requests by tier, route and outcome.\n"
            "# TYPE tiergate_requests_total counter\n"
            "tiergate_requests_total{tier=\"edge\",route=\"rule:short_prompt\",status=\"200\"} 2\n"
            "tiergate_requests_total{tier=\"cloud\",route=\"rule:keyword\",status=\"502\"} 2.5\n");
}

TEST(MetricsTest, UnlabeledCounterStartsAtZeroAndIgnoresNegative) {
  MetricsRegistry registry;
  Counter& c = registry.counter("tiergate_reloads_total", "Config reloads.");
  EXPECT_EQ(registry.render(),
            "# HELP tiergate_reloads_total Config reloads.\n"
            "# TYPE tiergate_reloads_total counter\n"
            "tiergate_reloads_total 0\n");
  c.inc(-1);
  c.inc(std::numeric_limits<double>::quiet_NaN());
  c.inc(0.5);
  EXPECT_EQ(c.value(), 0.5);
}

TEST(MetricsTest, LabeledFamilyWithoutChildrenRendersHeaderOnly) {
  MetricsRegistry registry;
  registry.counter_family("a_total", "A.", {"x"});
  EXPECT_EQ(registry.render(), "# HELP a_total A.\n# TYPE a_total counter\n");
}

TEST(MetricsTest, Gauge) {
  MetricsRegistry registry;
  auto& busy = registry.gauge_family("tiergate_busy", "Busy sequences.", {"tier"});
  Gauge& edge = busy.with({"edge"});
  edge.set(3);
  edge.inc();
  edge.dec(0.5);
  busy.with({"cloud"}).dec(2);
  Gauge& plain = registry.gauge("tiergate_temperature", "Degrees.");
  plain.set(1e20);
  EXPECT_EQ(registry.render(),
            "# HELP tiergate_busy Busy sequences.\n"
            "# TYPE tiergate_busy gauge\n"
            "tiergate_busy{tier=\"edge\"} 3.5\n"
            "tiergate_busy{tier=\"cloud\"} -2\n"
            "# HELP tiergate_temperature Degrees.\n"
            "# TYPE tiergate_temperature gauge\n"
            "tiergate_temperature 1e+20\n");
}

TEST(MetricsTest, SpecialValues) {
  MetricsRegistry registry;
  auto& g = registry.gauge_family("g", "G.", {"v"});
  g.with({"nan"}).set(std::numeric_limits<double>::quiet_NaN());
  g.with({"inf"}).set(std::numeric_limits<double>::infinity());
  g.with({"-inf"}).set(-std::numeric_limits<double>::infinity());
  g.with({"small"}).set(0.1);
  EXPECT_EQ(registry.render(),
            "# HELP g G.\n# TYPE g gauge\n"
            "g{v=\"nan\"} NaN\n"
            "g{v=\"inf\"} +Inf\n"
            "g{v=\"-inf\"} -Inf\n"
            "g{v=\"small\"} 0.1\n");
}

TEST(MetricsTest, GaugeCallbackIsReadAtRenderAndCanBeReplaced) {
  MetricsRegistry registry;
  int depth = 7;
  registry.gauge_callback("tiergate_edge_queue_depth", "Requests waiting for a sequence.",
                          [&depth] { return static_cast<double>(depth); });
  const std::string header =
      "# HELP tiergate_edge_queue_depth Requests waiting for a sequence.\n"
      "# TYPE tiergate_edge_queue_depth gauge\n";
  EXPECT_EQ(registry.render(), header + "tiergate_edge_queue_depth 7\n");
  depth = 2;
  EXPECT_EQ(registry.render(), header + "tiergate_edge_queue_depth 2\n");
  registry.gauge_callback("tiergate_edge_queue_depth", "Requests waiting for a sequence.",
                          [] { return 42.0; });
  EXPECT_EQ(registry.render(), header + "tiergate_edge_queue_depth 42\n");
  EXPECT_THROW(registry.gauge("tiergate_edge_queue_depth", "x"), std::logic_error);
}

TEST(MetricsTest, HistogramBucketsAreCumulative) {
  MetricsRegistry registry;
  auto& latency = registry.histogram_family("tiergate_latency_seconds", "Request latency.",
                                            {"tier"}, {0.25, 0.5, 1});
  Histogram& edge = latency.with({"edge"});
  edge.observe(0.25);  // on a bound: counted in that bucket
  edge.observe(0.5);
  edge.observe(0.75);
  edge.observe(3);
  edge.observe(std::numeric_limits<double>::quiet_NaN());  // ignored
  latency.with({"cloud"});
  EXPECT_EQ(registry.render(),
            "# HELP tiergate_latency_seconds Request latency.\n"
            "# TYPE tiergate_latency_seconds histogram\n"
            "tiergate_latency_seconds_bucket{tier=\"edge\",le=\"0.25\"} 1\n"
            "tiergate_latency_seconds_bucket{tier=\"edge\",le=\"0.5\"} 2\n"
            "tiergate_latency_seconds_bucket{tier=\"edge\",le=\"1\"} 3\n"
            "tiergate_latency_seconds_bucket{tier=\"edge\",le=\"+Inf\"} 4\n"
            "tiergate_latency_seconds_sum{tier=\"edge\"} 4.5\n"
            "tiergate_latency_seconds_count{tier=\"edge\"} 4\n"
            "tiergate_latency_seconds_bucket{tier=\"cloud\",le=\"0.25\"} 0\n"
            "tiergate_latency_seconds_bucket{tier=\"cloud\",le=\"0.5\"} 0\n"
            "tiergate_latency_seconds_bucket{tier=\"cloud\",le=\"1\"} 0\n"
            "tiergate_latency_seconds_bucket{tier=\"cloud\",le=\"+Inf\"} 0\n"
            "tiergate_latency_seconds_sum{tier=\"cloud\"} 0\n"
            "tiergate_latency_seconds_count{tier=\"cloud\"} 0\n");
}

TEST(MetricsTest, UnlabeledHistogramAndExplicitInfBound) {
  MetricsRegistry registry;
  Histogram& h = registry.histogram("tokens", "Tokens.",
                                    {1, 10, std::numeric_limits<double>::infinity()});
  h.observe(-5);
  h.observe(10);
  h.observe(11);
  EXPECT_EQ(registry.render(),
            "# HELP tokens Tokens.\n"
            "# TYPE tokens histogram\n"
            "tokens_bucket{le=\"1\"} 1\n"
            "tokens_bucket{le=\"10\"} 2\n"
            "tokens_bucket{le=\"+Inf\"} 3\n"
            "tokens_sum 16\n"
            "tokens_count 3\n");
  Histogram::Snapshot s = h.snapshot();
  EXPECT_EQ(s.cumulative, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.sum, 16);
}

TEST(MetricsTest, EscapesLabelValuesAndHelp) {
  MetricsRegistry registry;
  auto& f = registry.counter_family("odd_total", "Help with \\ backslash,\n\"quotes\".", {"v"});
  f.with({"a\\b\"c\nd"}).inc();
  EXPECT_EQ(registry.render(),
            "# HELP odd_total Help with \\\\ backslash,\\n\"quotes\".\n"
            "# TYPE odd_total counter\n"
            "odd_total{v=\"a\\\\b\\\"c\\nd\"} 1\n");
}

TEST(MetricsTest, FamiliesRenderInDeclarationOrder) {
  MetricsRegistry registry;
  registry.gauge("zeta", "Z.");
  registry.counter("alpha_total", "A.");
  registry.histogram("mid", "M.", {});
  EXPECT_EQ(registry.render(),
            "# HELP zeta Z.\n# TYPE zeta gauge\nzeta 0\n"
            "# HELP alpha_total A.\n# TYPE alpha_total counter\nalpha_total 0\n"
            "# HELP mid M.\n# TYPE mid histogram\n"
            "mid_bucket{le=\"+Inf\"} 0\nmid_sum 0\nmid_count 0\n");
}

TEST(MetricsTest, RedeclaringReturnsTheSameFamily) {
  MetricsRegistry registry;
  auto& a = registry.counter_family("x_total", "X.", {"tier"});
  auto& b = registry.counter_family("x_total", "X.", {"tier"});
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(&a.with({"edge"}), &b.with({"edge"}));
  EXPECT_EQ(&registry.counter("y_total", "Y."), &registry.counter("y_total", "Y."));
  auto& h1 = registry.histogram_family("h", "H.", {}, {1, 2});
  auto& h2 = registry.histogram_family("h", "H.", {}, {1, 2});
  EXPECT_EQ(&h1, &h2);
}

TEST(MetricsTest, MisuseThrowsLogicError) {
  MetricsRegistry registry;
  auto& f = registry.counter_family("x_total", "X.", {"tier", "status"});
  EXPECT_THROW(registry.gauge_family("x_total", "X.", {"tier", "status"}), std::logic_error);
  EXPECT_THROW(registry.counter_family("x_total", "X.", {"tier"}), std::logic_error);
  EXPECT_THROW(registry.gauge_callback("x_total", "X.", [] { return 1.0; }), std::logic_error);
  EXPECT_THROW(f.with({"edge"}), std::logic_error);
  EXPECT_THROW(f.with({"edge", "200", "extra"}), std::logic_error);
  registry.histogram_family("h", "H.", {}, {1, 2});
  EXPECT_THROW(registry.histogram_family("h", "H.", {}, {1, 3}), std::logic_error);
  EXPECT_THROW(registry.histogram("bad_bounds", "B.", {2, 1}), std::logic_error);
  EXPECT_THROW(registry.histogram("dup_bounds", "B.", {1, 1}), std::logic_error);
  EXPECT_THROW(registry.histogram_family("le_label", "B.", {"le"}, {1}), std::logic_error);
  EXPECT_THROW(registry.counter("1starts_with_digit", "B."), std::logic_error);
  EXPECT_THROW(registry.counter("has-dash", "B."), std::logic_error);
  EXPECT_THROW(registry.counter("", "B."), std::logic_error);
  EXPECT_THROW(registry.counter_family("ok_total", "B.", {"__reserved"}), std::logic_error);
  EXPECT_THROW(registry.counter_family("ok_total", "B.", {"a:b"}), std::logic_error);
  // Nothing above was registered.
  EXPECT_EQ(registry.render(),
            "# HELP x_total X.\n# TYPE x_total counter\n"
            "# HELP h H.\n# TYPE h histogram\n");
}

TEST(MetricsTest, ExponentialBuckets) {
  EXPECT_EQ(exponential_buckets(0.5, 2, 4), (std::vector<double>{0.5, 1, 2, 4}));
  EXPECT_THROW(exponential_buckets(0, 2, 3), std::logic_error);
  EXPECT_THROW(exponential_buckets(1, 1, 3), std::logic_error);
  EXPECT_THROW(exponential_buckets(1, 2, 0), std::logic_error);
}

TEST(MetricsTest, ConcurrentUpdatesSumCorrectly) {
  constexpr int kThreads = 8;
  constexpr int kIterations = 20000;
  MetricsRegistry registry;
  auto& requests = registry.counter_family("req_total", "R.", {"tier"});
  Counter& shared = requests.with({"edge"});
  Gauge& in_flight = registry.gauge("in_flight", "I.");
  Histogram& latency = registry.histogram("lat", "L.", {0.5, 1.5});
  std::atomic<bool> stop{false};

  // A reader renders while the writers run, and new children appear meanwhile.
  std::thread reader([&] {
    while (!stop.load()) {
      std::string text = registry.render();
      ASSERT_THAT(text, HasSubstr("# TYPE req_total counter\n"));
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      Counter& own = requests.with({std::to_string(t)});
      for (int i = 0; i < kIterations; ++i) {
        shared.inc();
        requests.with({"edge"}).inc(0.5);  // lookup each time
        own.inc();
        in_flight.inc();
        in_flight.dec();
        latency.observe(i % 2 == 0 ? 1.0 : 2.0);
      }
    });
  }
  for (auto& w : writers) w.join();
  stop = true;
  reader.join();

  EXPECT_EQ(shared.value(), kThreads * kIterations * 1.5);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(requests.with({std::to_string(t)}).value(), kIterations);
  }
  EXPECT_EQ(in_flight.value(), 0);
  Histogram::Snapshot s = latency.snapshot();
  const uint64_t total = static_cast<uint64_t>(kThreads) * kIterations;
  EXPECT_EQ(s.cumulative, (std::vector<uint64_t>{0, total / 2, total}));
  EXPECT_EQ(s.count, total);
  EXPECT_EQ(s.sum, static_cast<double>(total / 2) * 3.0);
}

TEST(MetricsTest, ConcurrentDeclarationsYieldOneFamily) {
  MetricsRegistry registry;
  std::vector<std::thread> threads;
  std::vector<CounterFamily*> seen(8);
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      seen[t] = &registry.counter_family("race_total", "R.", {"tier"});
      seen[t]->with({"edge"}).inc();
    });
  }
  for (auto& th : threads) th.join();
  for (CounterFamily* f : seen) EXPECT_EQ(f, seen[0]);
  EXPECT_EQ(seen[0]->with({"edge"}).value(), 8);
}

}  // namespace
}  // namespace tiergate
