// The decision log's line format (docs/scenario-format.md, "Decision log fields").
//
//   for (const Decision& d : log.decisions()) out << decisionToJson(sched, d, seq++).dump() <<
//   '\n';
#pragma once

#include <nlohmann/json.hpp>

#include "scheduler/decision.h"
#include "scheduler/scheduler.h"

namespace spindle {

nlohmann::json decisionToJson(const Scheduler& s, const DecisionRecord& d, size_t seq);
inline nlohmann::json decisionToJson(const Scheduler& s, const Decision& d, size_t seq) {
  return decisionToJson(s, d.view(), seq);
}

}  // namespace spindle
