// The REST answers of a finished simulation, from its output folder, so the web UI explores a
// what-if run as it explores a live RM (`spindle serve DIR`, `spindle sim --serve`).
//
//   SPINDLE_RETURN_IF_ERROR(writeSnapshot(dir + "/snapshot.json", sched));   // at the run's end
//   auto service = SnapshotService::load(dir);                              // later
//   HttpServer server(host, port, [&](HttpRequest r, Respond d) { d((*service)->answer(r)); });
//
// snapshot.json holds the RM's REST views at the end of the run ({"clusterInfo", "clusterMetrics",
// "scheduler", "apps", "nodes"}, the shapes of src/dao/rest_views.h); decisions.jsonl (written
// with --decision-log) feeds the decision endpoints. Answered, GET only: /ws/v1/cluster[/info],
// /metrics, /scheduler, /apps (states, user, queue, limit), /apps/{id}, /apps/{id}/state,
// /apps/{id}/appattempts, /nodes (states), /nodes/{id}, /spindle/decisions,
// /spindle/app-decisions/{id}, /node-attributes, and the UI's pages. Writes are 405, other paths
// 404. Thread-safe after load() (answer() only reads).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "dao/decision_store.h"
#include "protocol/http_server.h"
#include "scheduler/scheduler.h"

namespace spindle::webui {

// The RM's views of `sched` at `nowMs` as one JSON file.
Status writeSnapshot(const std::string& path, const Scheduler& sched, TimeMs nowMs);

class SnapshotService {
 public:
  // Errors: no snapshot.json in `dir` (naming it), a malformed one, a malformed decisions line
  // (file and line).
  static Result<std::unique_ptr<SnapshotService>> load(const std::string& dir);

  protocol::HttpResponse answer(const protocol::HttpRequest& req) const;
  size_t appCount() const;
  size_t nodeCount() const;

 private:
  SnapshotService() : decisions_(kKeptDecisions) {}
  protocol::HttpResponse rest(std::string_view what, const protocol::HttpRequest& req) const;
  Result<nlohmann::json> apps(const std::map<std::string, std::string>& q) const;
  Result<nlohmann::json> nodes(const std::map<std::string, std::string>& q) const;
  const nlohmann::json* findApp(std::string_view id) const;
  nlohmann::json nodeAttributes() const;

  static constexpr size_t kKeptDecisions = 100000;
  nlohmann::json snapshot_;
  std::string appsBody_, appsLightBody_, nodesBody_;  // the unfiltered lists, rendered
  std::string nodeSummaryBody_;                       // the snapshot never changes
  DecisionStore decisions_;
};

}  // namespace spindle::webui
