#include "scheduler/scheduling_request.h"

#include "placement/evaluator.h"
#include "placement/spec_parser.h"

namespace spindle {

const char* toString(RequestExecutionType t) {
  return t == RequestExecutionType::kGuaranteed ? "GUARANTEED" : "OPPORTUNISTIC";
}

const char* toString(PlacementHandler h) {
  switch (h) {
    case PlacementHandler::kDisabled: return "disabled";
    case PlacementHandler::kScheduler: return "scheduler";
    case PlacementHandler::kPlacementProcessor: return "placement-processor";
  }
  return "?";
}

Result<PlacementSettings> placementSettingsFromConfig(const Configuration& conf) {
  constexpr std::string_view kHandler = "yarn.resourcemanager.placement-constraints.handler";
  constexpr std::string_view kIterator =
      "yarn.resourcemanager.placement-constraints.algorithm.iterator";
  constexpr std::string_view kRetries = "yarn.resourcemanager.placement-constraints.retry-attempts";
  PlacementSettings s;
  const std::string handler = conf.get(kHandler).value_or("disabled");
  if (handler == "disabled") {
    s.handler = PlacementHandler::kDisabled;
  } else if (handler == "scheduler") {
    s.handler = PlacementHandler::kScheduler;
  } else if (handler == "placement-processor") {
    s.handler = PlacementHandler::kPlacementProcessor;
  } else {
    return invalidArgument("{}must be disabled, scheduler or placement-processor, got '{}'",
                           conf.where(kHandler), handler);
  }
  const std::string iterator = conf.get(kIterator).value_or("SERIAL");
  Result<placement::RequestOrder> order = placement::parseRequestOrder(iterator);
  if (!order) return invalidArgument("{}{}", conf.where(kIterator), order.status().message());
  s.order = *order;
  SPINDLE_ASSIGN_OR_RETURN(s.retryAttempts, conf.getInt(kRetries, 3));
  if (s.retryAttempts < 1) {
    return invalidArgument("{}must be at least 1, got {}", conf.where(kRetries), s.retryAttempts);
  }
  constexpr std::string_view kGlobal = "spindle.placement-constraints.global.";
  for (const std::string& name : conf.namesWithPrefix(kGlobal)) {
    const std::string tag = name.substr(kGlobal.size());
    if (tag.empty() || tag.find_first_of(" \t,=:") != std::string::npos) {
      return invalidArgument(
          "{}the source tag after the prefix must be one allocation tag, got '{}'",
          conf.where(name), tag);
    }
    Result<placement::PlacementConstraint> c = placement::parseExpression(conf.get(name, ""));
    if (!c) return invalidArgument("{}{}", conf.where(name), c.status().message());
    Status valid = placement::validateConstraint(*c);
    if (!valid.isOk()) return invalidArgument("{}{}", conf.where(name), valid.message());
    s.globalConstraints.emplace(tag, std::move(*c));
  }
  return s;
}

}  // namespace spindle
