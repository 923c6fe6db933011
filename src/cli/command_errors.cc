#include <iostream>

#include "commands.h"

namespace tiergate::cli {

int fail(const std::string& command, const std::string& message) {
  std::cerr << "tiergate " << command << ": " << message << "\n";
  return 1;
}

}  // namespace tiergate::cli
