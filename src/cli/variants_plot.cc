#include "variants_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace tiergate::cli {

namespace {

constexpr double kWidth = 760;
constexpr double kHeight = 480;
constexpr double kLeft = 80;
constexpr double kRight = 230;  // room for labels
constexpr double kTop = 50;
constexpr double kBottom = 60;

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format(const char* fmt, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

}  // namespace

std::string size_fidelity_svg(const std::string& title, const std::vector<PlotPoint>& all_points) {
  std::vector<PlotPoint> points;
  for (const auto& p : all_points) {
    if (p.kl_mean > 0 && std::isfinite(p.kl_mean)) points.push_back(p);
  }
  double max_size = 1;
  double lo = 1e-3;
  double hi = 1;
  if (!points.empty()) {
    max_size = 0;
    lo = 1e300;
    hi = 0;
    for (const auto& p : points) {
      max_size = std::max(max_size, p.size_mib);
      lo = std::min(lo, p.kl_mean);
      hi = std::max(hi, p.kl_mean);
    }
  }
  const double x_max = max_size * 1.1;
  const double y_lo = std::floor(std::log10(lo));
  const double y_hi = std::max(y_lo + 1, std::ceil(std::log10(hi)));
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double mib) { return kLeft + plot_w * mib / x_max; };
  auto y_of = [&](double kl) { return kTop + plot_h * (y_hi - std::log10(kl)) / (y_hi - y_lo); };

  std::string svg = format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                           "font-family=\"sans-serif\" font-size=\"12\">\n",
                           kWidth, kHeight);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += format("<text x=\"%.0f\" y=\"28\" font-size=\"15\">", kLeft) + escape_xml(title) + "</text>\n";
  // Axes, ticks and grid.
  svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", kLeft, kTop + plot_h,
                kLeft + plot_w, kTop + plot_h);
  svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", kLeft, kTop, kLeft,
                kTop + plot_h);
  for (int i = 0; i <= 5; ++i) {
    const double mib = x_max * i / 5;
    const double x = x_of(mib);
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, kTop, x,
                  kTop + plot_h);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", x, kTop + plot_h + 18, mib);
  }
  for (double e = y_lo; e <= y_hi; e += 1) {
    const double y = y_of(std::pow(10.0, e));
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", kLeft, y,
                  kLeft + plot_w, y);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n", kLeft - 6, y + 4, e);
  }
  svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">file size (MiB)</text>\n", kLeft + plot_w / 2,
                kHeight - 18);
  svg += format("<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\">mean KL divergence "
                "from the reference (nats/token, log)</text>\n",
                kTop + plot_h / 2);
  // Points, labelled with id and decode speed. A label that would overlap
  // one already placed (variants of the same size and fidelity) moves down.
  std::vector<std::pair<double, double>> placed;  // label x, y
  for (const auto& p : points) {
    const double x = x_of(p.size_mib);
    const double y = y_of(p.kl_mean);
    double label_y = y + 4;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& [px, py] : placed) {
        if (std::abs(px - (x + 7)) < 120 && std::abs(py - label_y) < 12) {
          label_y = py + 13;
          moved = true;
        }
      }
    }
    placed.emplace_back(x + 7, label_y);
    const std::string colour = p.importance ? "#c0392b" : "#2c6fbb";
    svg += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"", x, y) + colour + "\"/>\n";
    std::string label = p.label;
    if (p.decode_tps) label += format(" (%.0f tok/s)", *p.decode_tps);
    svg += format("<text x=\"%.1f\" y=\"%.1f\">", x + 7, label_y) + escape_xml(label) + "</text>\n";
  }
  svg += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#2c6fbb\"/>", kWidth - kRight + 20, kTop + 10);
  svg += format("<text x=\"%.1f\" y=\"%.1f\">plain</text>\n", kWidth - kRight + 30, kTop + 14);
  svg += format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#c0392b\"/>", kWidth - kRight + 20, kTop + 30);
  svg += format("<text x=\"%.1f\" y=\"%.1f\">importance matrix</text>\n", kWidth - kRight + 30, kTop + 34);
  svg += "</svg>\n";
  return svg;
}

}  // namespace tiergate::cli
