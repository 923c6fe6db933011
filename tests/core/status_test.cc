#include "tiergate/core/status.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.is_ok());
  EXPECT_EQ(s.to_string(), "ok");
}

TEST(StatusTest, CodesThatAllowFallback) {
  EXPECT_TRUE(unavailable("x").allows_fallback());
  EXPECT_TRUE(deadline_exceeded("x").allows_fallback());
  EXPECT_TRUE(resource_exhausted("x").allows_fallback());
  EXPECT_FALSE(invalid_argument("x").allows_fallback());
  EXPECT_FALSE(not_found("x").allows_fallback());
  EXPECT_FALSE(cancelled("x").allows_fallback());
  EXPECT_FALSE(internal_error("x").allows_fallback());
}

TEST(StatusTest, StatusOrHoldsValueOrError) {
  StatusOr<int> v = 3;
  ASSERT_TRUE(v.is_ok());
  EXPECT_EQ(*v, 3);
  StatusOr<int> e = not_found("no such model");
  ASSERT_FALSE(e.is_ok());
  EXPECT_EQ(e.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(e.status().to_string(), "not_found: no such model");
}

}  // namespace
}  // namespace tiergate
