#include "case_table.h"

#include <fstream>
#include <stdexcept>

namespace tiergate::testing {

nlohmann::json load_case_table(const std::string& path_in_repo) {
  std::ifstream in(std::string(TIERGATE_SOURCE_DIR) + "/" + path_in_repo);
  if (!in) throw std::runtime_error("cannot read the case table " + path_in_repo);
  return nlohmann::json::parse(in);
}

}  // namespace tiergate::testing
