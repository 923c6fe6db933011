#include "tiergate/obs/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace tiergate {
namespace {

bool is_metric_name(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool is_label_name(std::string_view name) {
  if (name.empty() || name.starts_with("__")) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// Sample values and bucket bounds as Prometheus (Go's ParseFloat) reads them:
// the shortest text that round-trips, "+Inf", "-Inf", "NaN".
void append_value(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
  } else {
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ec == std::errc() ? end : buf);
  }
}

void append_value(std::string& out, uint64_t v) { out += std::to_string(v); }

// Label values escape backslash, double quote and newline.
void append_label_value(std::string& out, std::string_view value) {
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

// HELP text escapes backslash and newline only.
void append_help(std::string& out, std::string_view help) {
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

// Appends {name="value",...}, with an extra le="bound" label when le is set;
// nothing when there are no labels at all.
void append_labels(std::string& out, const std::vector<std::string>& names,
                   const std::vector<std::string>& values, const double* le = nullptr) {
  if (names.empty() && le == nullptr) return;
  out += '{';
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    out += names[i];
    out += "=\"";
    append_label_value(out, values[i]);
    out += '"';
  }
  if (le != nullptr) {
    if (!names.empty()) out += ',';
    out += "le=\"";
    append_value(out, *le);
    out += '"';
  }
  out += '}';
}

template <typename V>
void append_sample(std::string& out, const std::string& name, std::string_view suffix,
                   const std::vector<std::string>& label_names,
                   const std::vector<std::string>& label_values, V value,
                   const double* le = nullptr) {
  out += name;
  out += suffix;
  append_labels(out, label_names, label_values, le);
  out += ' ';
  append_value(out, value);
  out += '\n';
}

// Drops a trailing +Inf (it is implicit) and checks the rest.
std::vector<double> normalize_bounds(const std::string& name, std::vector<double> bounds) {
  if (!bounds.empty() && std::isinf(bounds.back()) && bounds.back() > 0) bounds.pop_back();
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && !(bounds[i] > bounds[i - 1]))) {
      throw std::logic_error("histogram " + name +
                             ": bucket bounds must be finite and strictly increasing");
    }
  }
  return bounds;
}

// A gauge without labels whose value comes from a callback at render time.
class CallbackGauge final : public MetricFamilyBase {
 public:
  CallbackGauge(std::string name, std::string help, std::function<double()> read)
      : MetricFamilyBase(std::move(name), std::move(help), MetricKind::kGauge, {}),
        read_(std::move(read)) {}

  void replace(std::function<double()> read) {
    std::lock_guard lock(mu_);
    read_ = std::move(read);
  }

 protected:
  void render_samples(std::string& out) const override {
    std::function<double()> read;
    {
      std::lock_guard lock(mu_);
      read = read_;
    }
    static const std::vector<std::string> kNoLabels;
    append_sample(out, name(), "", kNoLabels, kNoLabels, read ? read() : 0.0);
  }

 private:
  mutable std::mutex mu_;
  std::function<double()> read_;
};

}  // namespace

std::string_view metric_kind_name(MetricKind kind) {
  switch (kind) {
    case MetricKind::kCounter: return "counter";
    case MetricKind::kGauge: return "gauge";
    case MetricKind::kHistogram: return "histogram";
  }
  return "untyped";
}

void Counter::inc(double v) {
  if (!(v >= 0)) return;
  value_.fetch_add(v, std::memory_order_relaxed);
}

Histogram::Histogram(const std::vector<double>& bounds)
    : bounds_(bounds), counts_(std::make_unique<std::atomic<uint64_t>[]>(bounds.size() + 1)) {}

void Histogram::observe(double v) {
  if (std::isnan(v)) return;
  // The first bound >= v: buckets count observations v <= bound.
  auto bucket = static_cast<size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), v) -
                                    bounds_.begin());
  counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(v, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot s;
  s.cumulative.reserve(bounds_.size() + 1);
  uint64_t running = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  s.count = running;
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

MetricFamilyBase::MetricFamilyBase(std::string name, std::string help, MetricKind kind,
                                   std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), kind_(kind),
      label_names_(std::move(label_names)) {}

void MetricFamilyBase::render(std::string& out) const {
  out += "# HELP ";
  out += name_;
  out += ' ';
  append_help(out, help_);
  out += "\n# TYPE ";
  out += name_;
  out += ' ';
  out += metric_kind_name(kind_);
  out += '\n';
  render_samples(out);
}

template <typename Metric>
MetricFamily<Metric>::MetricFamily(std::string name, std::string help, MetricKind kind,
                                   std::vector<std::string> label_names,
                                   std::vector<double> bounds)
    : MetricFamilyBase(std::move(name), std::move(help), kind, std::move(label_names)),
      bounds_(std::move(bounds)) {}

template <typename Metric>
Metric& MetricFamily<Metric>::with(const std::vector<std::string>& label_values) {
  if (label_values.size() != label_names().size()) {
    throw std::logic_error("metric " + name() + ": expected " +
                           std::to_string(label_names().size()) + " label values, got " +
                           std::to_string(label_values.size()));
  }
  std::lock_guard lock(mu_);
  if (auto it = index_.find(label_values); it != index_.end()) return *it->second;
  std::unique_ptr<Metric> child;
  if constexpr (std::is_same_v<Metric, Histogram>) {
    child = std::make_unique<Histogram>(bounds_);
  } else {
    child = std::make_unique<Metric>();
  }
  Metric& ref = *child;
  children_.emplace_back(label_values, std::move(child));
  index_.emplace(label_values, &ref);
  return ref;
}

template <typename Metric>
void MetricFamily<Metric>::render_samples(std::string& out) const {
  std::lock_guard lock(mu_);
  for (const auto& [values, child] : children_) {
    if constexpr (std::is_same_v<Metric, Histogram>) {
      Histogram::Snapshot s = child->snapshot();
      for (size_t i = 0; i < bounds_.size(); ++i) {
        append_sample(out, name(), "_bucket", label_names(), values, s.cumulative[i], &bounds_[i]);
      }
      const double inf = std::numeric_limits<double>::infinity();
      append_sample(out, name(), "_bucket", label_names(), values, s.count, &inf);
      append_sample(out, name(), "_sum", label_names(), values, s.sum);
      append_sample(out, name(), "_count", label_names(), values, s.count);
    } else {
      append_sample(out, name(), "", label_names(), values, child->value());
    }
  }
}

template class MetricFamily<Counter>;
template class MetricFamily<Gauge>;
template class MetricFamily<Histogram>;

std::vector<double> exponential_buckets(double start, double factor, int count) {
  if (!(start > 0) || !(factor > 1) || count < 1) {
    throw std::logic_error("exponential_buckets: need start > 0, factor > 1, count >= 1");
  }
  std::vector<double> bounds;
  bounds.reserve(static_cast<size_t>(count));
  double b = start;
  for (int i = 0; i < count; ++i, b *= factor) bounds.push_back(b);
  return bounds;
}

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

template <typename Family, typename... Args>
Family& MetricsRegistry::declare(const std::string& name, const std::string& help,
                                 MetricKind kind, std::vector<std::string> label_names,
                                 Args&&... args) {
  if (!is_metric_name(name)) throw std::logic_error("invalid metric name '" + name + "'");
  for (const auto& label : label_names) {
    if (!is_label_name(label) || (kind == MetricKind::kHistogram && label == "le")) {
      throw std::logic_error("metric " + name + ": invalid label name '" + label + "'");
    }
  }
  std::lock_guard lock(mu_);
  if (auto it = by_name_.find(name); it != by_name_.end()) {
    auto* existing = dynamic_cast<Family*>(it->second);
    if (existing == nullptr || existing->kind() != kind ||
        existing->label_names() != label_names) {
      throw std::logic_error("metric " + name + " is already declared with another kind or labels");
    }
    return *existing;
  }
  auto family = std::make_unique<Family>(name, help, kind, std::move(label_names),
                                         std::forward<Args>(args)...);
  Family& ref = *family;
  families_.push_back(std::move(family));
  by_name_.emplace(name, &ref);
  return ref;
}

CounterFamily& MetricsRegistry::counter_family(const std::string& name, const std::string& help,
                                               std::vector<std::string> label_names) {
  return declare<CounterFamily>(name, help, MetricKind::kCounter, std::move(label_names));
}

GaugeFamily& MetricsRegistry::gauge_family(const std::string& name, const std::string& help,
                                           std::vector<std::string> label_names) {
  return declare<GaugeFamily>(name, help, MetricKind::kGauge, std::move(label_names));
}

HistogramFamily& MetricsRegistry::histogram_family(const std::string& name,
                                                   const std::string& help,
                                                   std::vector<std::string> label_names,
                                                   std::vector<double> bounds) {
  std::vector<double> normalized = normalize_bounds(name, std::move(bounds));
  HistogramFamily& family = declare<HistogramFamily>(name, help, MetricKind::kHistogram,
                                                     std::move(label_names), normalized);
  if (family.bounds() != normalized) {
    throw std::logic_error("histogram " + name + " is already declared with other buckets");
  }
  return family;
}

Counter& MetricsRegistry::counter(const std::string& name, const std::string& help) {
  return counter_family(name, help, {}).with({});
}

Gauge& MetricsRegistry::gauge(const std::string& name, const std::string& help) {
  return gauge_family(name, help, {}).with({});
}

Histogram& MetricsRegistry::histogram(const std::string& name, const std::string& help,
                                      std::vector<double> bounds) {
  return histogram_family(name, help, {}, std::move(bounds)).with({});
}

void MetricsRegistry::gauge_callback(const std::string& name, const std::string& help,
                                     std::function<double()> read) {
  if (!is_metric_name(name)) throw std::logic_error("invalid metric name '" + name + "'");
  std::lock_guard lock(mu_);
  if (auto it = by_name_.find(name); it != by_name_.end()) {
    auto* existing = dynamic_cast<CallbackGauge*>(it->second);
    if (existing == nullptr) {
      throw std::logic_error("metric " + name + " is already declared with another kind");
    }
    existing->replace(std::move(read));
    return;
  }
  auto family = std::make_unique<CallbackGauge>(name, help, std::move(read));
  by_name_.emplace(name, family.get());
  families_.push_back(std::move(family));
}

std::string MetricsRegistry::render() const {
  // Families are never removed, so the pointers stay valid after the lock is
  // released; rendering without it lets callbacks run lock-free.
  std::vector<const MetricFamilyBase*> families;
  {
    std::lock_guard lock(mu_);
    families.reserve(families_.size());
    for (const auto& f : families_) families.push_back(f.get());
  }
  std::string out;
  for (const MetricFamilyBase* f : families) f->render(out);
  return out;
}

}  // namespace tiergate
