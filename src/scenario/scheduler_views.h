// Scenario `expect.state` views of scheduler state that YARN's REST API does not carry
// (docs/scenario-format.md):
//
//   queueMetrics:root.a.pendingMB        the queue's QueueMetrics figures (dao/queue_metrics_view)
//   app:a1.reReservations.1              re-reservations of the app's priority-1 key; `.total`
//   preemptionSettings:observe_only      an effective capacity preemption setting (key suffix
//                                        or full property name), defaults applied
//
// Unknown queues, apps, keys and schedulers without the figure are errors naming the path.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/expectations.h"

namespace spindle {

// `parts` is the path after "queueMetrics:", split at dots.
Result<nlohmann::json> queueMetricsStatePath(const std::vector<std::string>& parts,
                                             const std::string& path, const ExpectContext& ctx);

// `parts` is the path after "app:<handle>.reReservations", split at dots.
Result<nlohmann::json> reReservationsStatePath(AppId app, const std::vector<std::string>& parts,
                                               const std::string& path, const ExpectContext& ctx);

// `key` is the whole text after "preemptionSettings:".
Result<nlohmann::json> preemptionSettingsStatePath(const std::string& key, const std::string& path,
                                                   const ExpectContext& ctx);

// The capacity preemption policy's effective settings, keyed by property name (every key
// parsePreemptionSettings and parseMonitorConfig read); nullopt for other schedulers.
std::optional<nlohmann::json> preemptionSettingsView(const Scheduler& s);

}  // namespace spindle
