// CapacityScheduler::create: yarn-site and capacity-scheduler keys to a running scheduler, and
// the re-parse when the cluster's node labels change (accessible-node-labels.<label>.* keys are
// validated against the labels the cluster has).
#include "scheduler/capacity/capacity_scheduler.h"

#include <algorithm>

namespace spindle {

namespace {
constexpr const char* kDefaultCalculator =
    "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";

ClusterLabels labelsOf(const Cluster& cluster) {
  ClusterLabels labels;
  for (const auto& [name, l] : cluster.nodeLabels()) labels[name] = NodeLabelInfo{l.exclusive};
  return labels;
}
}  // namespace

Result<std::unique_ptr<CapacityScheduler>> CapacityScheduler::create(const Configuration& conf,
                                                                     const Clock& clock,
                                                                     Rng& rng) {
  const std::string calculator =
      conf.get(std::string(kCapacityPrefix) + "resource-calculator", kDefaultCalculator);
  SPINDLE_ASSIGN_OR_RETURN(SchedulerSettings s,
                           schedulerSettingsFromConfig(conf, calculator, /*fairIncrements=*/false));
  SPINDLE_RETURN_IF_ERROR(conf.getBool("yarn.acl.enable", false).status());
  SPINDLE_RETURN_IF_ERROR(conf.getInt("yarn.cluster.max-application-priority", 0).status());
  SPINDLE_ASSIGN_OR_RETURN(GroupsProvider groups, GroupsProvider::fromConfig(conf));
  SPINDLE_ASSIGN_OR_RETURN(CapacityConfig cfg,
                           parseCapacityConfig(conf, s.types, s.bounds, ClusterLabels{}));
  return std::make_unique<CapacityScheduler>(std::move(s), std::move(cfg), std::move(groups),
                                             clock, rng);
}

Status CapacityScheduler::refreshConfiguration(const Configuration& conf) {
  Configuration merged = settings().conf;
  merged.merge(conf);
  auto next = parseCapacityConfig(merged, settings().types, settings().bounds,
                                  labelsOf(cluster()));
  if (!next.isOk()) return next.status().withContext("refreshQueues");
  SPINDLE_RETURN_IF_ERROR(checkCapacityRefresh(config_, *next).withContext("refreshQueues"));
  return refreshWithConfig(*next);
}

void CapacityScheduler::reparseForLabels() {
  ClusterLabels labels = labelsOf(cluster());
  const bool same = labels.size() == parsedLabels_.size() &&
                    std::equal(labels.begin(), labels.end(), parsedLabels_.begin(),
                               [](const auto& a, const auto& b) {
                                 return a.first == b.first &&
                                        a.second.exclusive == b.second.exclusive;
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
