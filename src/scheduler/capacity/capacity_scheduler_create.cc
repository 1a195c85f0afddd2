// CapacityScheduler::create: yarn-site and capacity-scheduler keys to a running scheduler, and
// the re-parse when the cluster's node labels change (accessible-node-labels.<label>.* keys are
// validated against the labels the cluster has).
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/plan_queues.h"

#include <algorithm>

namespace spindle {

namespace {
constexpr const char* kDefaultCalculator =
    "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";

// Node labels the capacity keys mention (accessible-node-labels.<l>.*, accessible-node-labels
// and default-node-label-expression values). Labels are added to the cluster after the
// scheduler starts (rmadmin -addToClusterNodeLabels, or a scenario step), so the first parse
// accepts them provisionally; reparseForLabels() validates against the real labels later.
ClusterLabels labelsMentioned(const Configuration& conf) {
  ClusterLabels labels;
  const std::string marker = ".accessible-node-labels";
  for (const std::string& key : conf.namesWithPrefix(kCapacityPrefix)) {
    const auto at = key.find(marker);
    if (at == std::string::npos) {
      if (key.ends_with(".default-node-label-expression")) {
        const std::string v = conf.get(key, "");
        if (!v.empty() && v.find(' ') == std::string::npos) labels[v] = NodeLabelInfo{};
      }
      continue;
    }
    const std::string rest = key.substr(at + marker.size());
    if (rest.empty()) {
      for (const std::string& l : conf.getStrings(key)) {
        if (l != "*") labels[l] = NodeLabelInfo{};
      }
    } else if (rest.front() == '.') {
      const auto dot = rest.find('.', 1);
      if (dot != std::string::npos) labels[rest.substr(1, dot - 1)] = NodeLabelInfo{};
    }
  }
  return labels;
}

// YARN ships capacity-scheduler.xml with one queue, root.default at 100 %; Spindle applies the
// same when the configuration names no queues at all.
Configuration withShippedDefaults(const Configuration& conf) {
  Configuration out = conf;
  const std::string rootQueues = std::string(kCapacityPrefix) + "root.queues";
  if (!conf.contains(rootQueues)) {
    out.set(rootQueues, "default");
    out.set(std::string(kCapacityPrefix) + "root.default.capacity", "100");
  }
  return out;
}

ClusterLabels labelsOf(const Cluster& cluster) {
  ClusterLabels labels;
  for (const auto& [name, l] : cluster.nodeLabels()) labels[name] = NodeLabelInfo{l.exclusive};
  return labels;
}
}  // namespace

Result<std::unique_ptr<CapacityScheduler>> CapacityScheduler::create(const Configuration& conf,
                                                                     const Clock& clock, Rng& rng) {
  const std::string calculator =
      conf.get(std::string(kCapacityPrefix) + "resource-calculator", kDefaultCalculator);
  SPINDLE_ASSIGN_OR_RETURN(SchedulerSettings s,
                           schedulerSettingsFromConfig(conf, calculator, /*fairIncrements=*/false));
  SPINDLE_ASSIGN_OR_RETURN(GroupsProvider groups, GroupsProvider::fromConfig(conf));
  s.conf = withShippedDefaults(conf);
  const ClusterLabels provisional = labelsMentioned(s.conf);
  SPINDLE_ASSIGN_OR_RETURN(CapacityConfig cfg,
                           parseCapacityConfig(s.conf, s.types, s.bounds, provisional));
  expandPlanQueues(cfg, {});
  SPINDLE_ASSIGN_OR_RETURN(MonitorConfig monitor, parseMonitorConfig(s.conf));
  auto cs = std::make_unique<CapacityScheduler>(std::move(s), std::move(cfg), std::move(groups),
                                                clock, rng);
  // Checked against the cluster's labels by the first event's sync (reparseForLabels).
  cs->parsedLabels_ = provisional;
  cs->dirty_ = true;
  cs->onlyNodesChanged_ = false;
  cs->preemption_.config = monitor;
  return cs;
}

Status CapacityScheduler::refreshConfiguration(const Configuration& conf) {
  EventScope scope(*this);
  Configuration merged = settings().conf;
  merged.merge(conf);
  // The policy re-reads its knobs when the configuration changed (updateConfigIfNeeded);
  // invalid knobs fail the whole refresh before anything changes.
  auto monitor = parseMonitorConfig(merged);
  if (!monitor.isOk()) return monitor.status().withContext("refreshQueues");
  auto next = parseCapacityConfig(merged, settings().types, settings().bounds, labelsOf(cluster()));
  if (!next.isOk()) return next.status().withContext("refreshQueues");
  SPINDLE_RETURN_IF_ERROR(checkCapacityRefresh(config_, *next).withContext("refreshQueues"));
  SPINDLE_RETURN_IF_ERROR(refreshWithConfig(*next));
  preemption_.config = *monitor;
  if (!monitor->preemptionActive()) preemption_.executor.clearMarks();
  return Status::ok();
}

// At start-up (no nodes, no apps yet) the labels complete the scheduler's initialisation, so
// capacity keys naming a label the cluster lacks fail it, as YARN's queue init does
// ("NodeLabelManager doesn't include label = z"). Later additions re-parse at the end of the event.
Status CapacityScheduler::onNodeLabelsAdded() {
  dirty_ = true;
  onlyNodesChanged_ = false;
  recountPartitions_ = true;  // the new labels' partitions start empty
  if (cluster().numNodes() > 0 || !apps().empty()) return Status::ok();
  ClusterLabels labels = labelsOf(cluster());
  auto next = parseCapacityConfig(settings().conf, settings().types, settings().bounds, labels);
  if (!next.isOk()) return next.status();
  parsedLabels_ = labels;
  return refreshWithConfig(*next);
}

void CapacityScheduler::reparseForLabels() {
  ClusterLabels labels = labelsOf(cluster());
  const bool same =
      labels.size() == parsedLabels_.size() &&
      std::equal(labels.begin(), labels.end(), parsedLabels_.begin(),
                 [](const auto& a, const auto& b) {
                   return a.first == b.first && a.second.exclusive == b.second.exclusive;
                 });
  if (same) return;
  parsedLabels_ = labels;
  auto next = parseCapacityConfig(settings().conf, settings().types, settings().bounds, labels);
  if (!next.isOk()) {
    configWarnings_.push_back(next.status().message());
    return;
  }
  Status s = refreshWithConfig(*next);
  if (!s.isOk()) configWarnings_.push_back(s.message());
}

}  // namespace spindle
