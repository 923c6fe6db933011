#include "tiergate/engines/engine.h"

namespace tiergate {

std::string_view tier_state_name(TierState state) {
  switch (state) {
    case TierState::kReady: return "ready";
    case TierState::kLoading: return "loading";
    case TierState::kUnavailable: return "unavailable";
  }
  return "unavailable";
}

}  // namespace tiergate
