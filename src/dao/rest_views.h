// JSON views of the scheduler in the shapes of YARN's REST API. Snapshots written by the
// scenario runner and the simulator, and the daemon's responses, all come from here.
//
//   nlohmann::json s = schedulerView(sched);   // {"scheduler": {"schedulerInfo": {...}}}
//   nlohmann::json m = metricsView(sched);     // {"clusterMetrics": {...}}
//   nlohmann::json a = appsView(sched);        // {"apps": {"app": [...]}}
//   nlohmann::json n = nodesView(sched);       // {"nodes": {"node": [...]}}
//
// Data-transfer shapes live here, apart from the core objects (STYLE rule 10). Field names and
// meanings follow the Hadoop docs' ResourceManager REST API page and YARN's webapp.dao classes.
#pragma once

#include <nlohmann/json.hpp>

#include "scheduler/scheduler.h"

namespace spindle {

nlohmann::json schedulerView(const Scheduler& s);
nlohmann::json metricsView(const Scheduler& s);
nlohmann::json appsView(const Scheduler& s);
nlohmann::json appView(const Scheduler& s, const Application& a);
// An app's finalStatus as the scheduler knows it (SUCCEEDED, FAILED, KILLED, UNDEFINED).
const char* yarnFinalStatus(AppState st);
nlohmann::json nodesView(const Scheduler& s);
nlohmann::json nodeView(const Scheduler& s, const Node& n);

// {"memory": m, "vCores": v} plus "resourceInformations" when extra types are declared,
// as YARN's ResourceInfo.
nlohmann::json resourceInfo(const ResourceTypes& types, const Resource& r);
// {"memory-mb": m, "vcores": v, "yarn.io/gpu": g}: every declared type by name.
nlohmann::json resourceByName(const ResourceTypes& types, const Resource& r);

}  // namespace spindle
