// The RM's recent decisions: a DecisionStore fed by the scheduler's decision stream, for the web
// UI's scheduler activity and why-pending views (docs/rest-api.md, "Decisions"). YARN's closest
// view is the scheduler activities of RMWebServices (/scheduler/activities,
// /scheduler/app-activities/{appid}); Spindle's records are its own decision log lines.
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {
// Enough for the activity page; each line is a few hundred bytes.
constexpr size_t kKeptDecisions = 20000;
}  // namespace

void RmCore::attachDecisionStore() {
  decisionStore_ = std::make_unique<DecisionStore>(kKeptDecisions);
  decisionSink_ = std::make_unique<DecisionStoreSink>(sched(), *decisionStore_);
}

Result<json> RmCore::decisions(const std::map<std::string, std::string>& query) const {
  return decisionStore_->query(query);
}

Result<json> RmCore::appDecisions(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  (void)app;
  return decisionStore_->appDecisions(std::string(appId));
}

}  // namespace spindle::rm
