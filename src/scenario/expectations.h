// Evaluation of `expect` steps: decision matchers and state paths (docs/scenario-format.md,
// EXPECT). Returns readable failure texts; an empty list means every check held.
//
//   ExpectContext ctx{sched, decisionsSinceLastExpect, handles};
//   for (auto& f : evaluateExpect(step.body, ctx)) std::cerr << f << '\n';
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reservation/reservation_definition.h"
#include "scheduler/decision.h"
#include "scheduler/reservation_system.h"
#include "scheduler/scheduler.h"

namespace spindle {

struct ExpectContext {
  const Scheduler& scheduler;
  std::span<const Decision> since;
  const std::map<std::string, AppId>& apps;  // scenario handle -> app id
  // The reservation system (nullptr when off) and the scenario's reservation handles.
  const ReservationSystem* reservations = nullptr;
  const std::map<std::string, reservation::ReservationId>* reservationIds = nullptr;
};

std::vector<std::string> evaluateExpect(const nlohmann::json& body, const ExpectContext& ctx);

// Resolves a state path ("metrics.availableMB", "app:a1.allocatedMB", ...) to its value;
// an error names the part of the path that did not resolve.
Result<nlohmann::json> resolveStatePath(const std::string& path, const ExpectContext& ctx);

// "a1:2" or a full container id string.
Result<ContainerId> resolveContainerHandle(const std::string& handle, const Scheduler& s,
                                           const std::map<std::string, AppId>& apps);

}  // namespace spindle
