// A small thread-safe Prometheus registry. A metric family is declared once
// (name, help, label names) at startup; its children, one per combination of
// label values, are looked up with with() and then updated lock-free:
//
//   auto& requests = registry.counter_family("tiergate_requests_total",
//       "Chat completion requests by tier, route and outcome.", {"tier", "route", "status"});
//   requests.with({"edge", "rule:short_prompt", "200"}).inc();
//
// Every reference the registry hands out stays valid for the registry's
// lifetime, so hot paths look a child up once and keep the reference.
// Misuse (a bad name, redeclaring a name differently, the wrong number of
// label values) is a startup bug and throws std::logic_error.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tiergate {

enum class MetricKind { kCounter, kGauge, kHistogram };

std::string_view metric_kind_name(MetricKind kind);

// A monotonically increasing value.
class Counter {
 public:
  // v must be >= 0; negative and NaN values are ignored.
  void inc(double v = 1);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// A value that goes up and down.
class Gauge {
 public:
  void set(double v) { value_.store(v, std::memory_order_relaxed); }
  void inc(double v = 1) { value_.fetch_add(v, std::memory_order_relaxed); }
  void dec(double v = 1) { value_.fetch_sub(v, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// Observations counted into fixed buckets. A bucket with upper bound b counts
// observations v <= b; the implicit last bucket (+Inf) counts the rest.
class Histogram {
 public:
  // bounds: strictly increasing finite upper bounds; must outlive the histogram.
  explicit Histogram(const std::vector<double>& bounds);

  // NaN is ignored.
  void observe(double v);

  struct Snapshot {
    std::vector<uint64_t> cumulative;  // one per bound, then +Inf
    double sum = 0;
    uint64_t count = 0;  // equals cumulative.back()
  };
  // Not atomic as a whole: an observe() running concurrently may be counted
  // in its bucket but not yet in sum. count always equals the +Inf bucket.
  Snapshot snapshot() const;

 private:
  const std::vector<double>& bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;  // per bucket, not cumulative
  std::atomic<double> sum_{0};
};

// Common part of every family, used for rendering.
class MetricFamilyBase {
 public:
  MetricFamilyBase(std::string name, std::string help, MetricKind kind,
                   std::vector<std::string> label_names);
  virtual ~MetricFamilyBase() = default;
  MetricFamilyBase(const MetricFamilyBase&) = delete;
  MetricFamilyBase& operator=(const MetricFamilyBase&) = delete;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  MetricKind kind() const { return kind_; }
  const std::vector<std::string>& label_names() const { return label_names_; }

  // Appends the HELP and TYPE lines and every sample in exposition format 0.0.4.
  void render(std::string& out) const;

 protected:
  virtual void render_samples(std::string& out) const = 0;

 private:
  std::string name_;
  std::string help_;
  MetricKind kind_;
  std::vector<std::string> label_names_;
};

// The children of one family, in the order they were first looked up.
template <typename Metric>
class MetricFamily final : public MetricFamilyBase {
 public:
  // bounds is used by histogram families only.
  MetricFamily(std::string name, std::string help, MetricKind kind,
               std::vector<std::string> label_names, std::vector<double> bounds = {});

  // The child for these label values (one per label name), created on first
  // use. Takes a mutex: keep the reference rather than calling it per update.
  Metric& with(const std::vector<std::string>& label_values);

  const std::vector<double>& bounds() const { return bounds_; }

 protected:
  void render_samples(std::string& out) const override;

 private:
  const std::vector<double> bounds_;
  mutable std::mutex mu_;
  std::vector<std::pair<std::vector<std::string>, std::unique_ptr<Metric>>> children_;
  std::map<std::vector<std::string>, Metric*> index_;
};

using CounterFamily = MetricFamily<Counter>;
using GaugeFamily = MetricFamily<Gauge>;
using HistogramFamily = MetricFamily<Histogram>;

extern template class MetricFamily<Counter>;
extern template class MetricFamily<Gauge>;
extern template class MetricFamily<Histogram>;

// Bounds start, start*factor, ... (count of them), for histogram declarations.
std::vector<double> exponential_buckets(double start, double factor, int count);

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // Declares a family, or returns the one already declared under this name
  // with the same kind, label names (and bounds). Anything else with the same
  // name throws std::logic_error. Names follow [a-zA-Z_:][a-zA-Z0-9_:]*, label
  // names [a-zA-Z_][a-zA-Z0-9_]* without a leading "__"; histograms may not use
  // the label "le".
  CounterFamily& counter_family(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names);
  GaugeFamily& gauge_family(const std::string& name, const std::string& help,
                            std::vector<std::string> label_names);
  HistogramFamily& histogram_family(const std::string& name, const std::string& help,
                                    std::vector<std::string> label_names,
                                    std::vector<double> bounds);

  // Families without labels: the single child.
  Counter& counter(const std::string& name, const std::string& help);
  Gauge& gauge(const std::string& name, const std::string& help);
  Histogram& histogram(const std::string& name, const std::string& help,
                       std::vector<double> bounds);

  // A gauge without labels whose value is read from read() at each render()
  // (e.g. a queue depth). read is called without any registry lock held, from
  // the thread that renders; it must be thread-safe and must not throw.
  // Declaring the same name again replaces the callback (e.g. after a reload
  // replaced the object it reads).
  void gauge_callback(const std::string& name, const std::string& help,
                      std::function<double()> read);

  // The whole registry in Prometheus text exposition format 0.0.4: families in
  // declaration order, children in the order they were first looked up.
  std::string render() const;

 private:
  template <typename Family, typename... Args>
  Family& declare(const std::string& name, const std::string& help, MetricKind kind,
                  std::vector<std::string> label_names, Args&&... args);

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<MetricFamilyBase>> families_;
  std::map<std::string, MetricFamilyBase*, std::less<>> by_name_;
};

}  // namespace tiergate
