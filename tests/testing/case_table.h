// The test case tables kept as JSON files beside the tests.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tiergate::testing {

// Parses the file at path_in_repo (e.g. "tests/router/route_cases.json");
// throws when it is missing or malformed, which fails the test that asked.
nlohmann::json load_case_table(const std::string& path_in_repo);

}  // namespace tiergate::testing
