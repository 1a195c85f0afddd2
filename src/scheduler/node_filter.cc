#include "scheduler/node_filter.h"

namespace spindle {

PlacementCheck::~PlacementCheck() = default;

// Out of line: only a refused node reaches it, and the text is the check's own.
std::string NodeFilter::explainConstraints(const Application& app, const SchedulerKey& key,
                                           const Node& node) const {
  if (placement_ == nullptr) return std::string();
  return placement_->explain(app, key, node);
}

}  // namespace spindle
