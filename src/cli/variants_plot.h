// The size-versus-fidelity plot of `tiergate variants eval`, as SVG.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tiergate::cli {

struct PlotPoint {
  std::string label;                 // variant id
  double size_mib = 0;               // x
  double kl_mean = 0;                // y, log scale; points with KL <= 0 are left out
  std::optional<double> decode_tps;  // printed beside the label
  bool importance = false;           // drawn in another colour
};

// A self-contained SVG document: x = file size (MiB, linear from 0), y = mean
// KL divergence from the reference (log scale, decades), one labelled point
// per variant.
std::string size_fidelity_svg(const std::string& title, const std::vector<PlotPoint>& points);

}  // namespace tiergate::cli
