#include "scheduler/capacity/config/capacity_config.h"

#include <fmt/format.h>

#include "scheduler/capacity/config/config_builder.h"

namespace spindle {

namespace capacity_config {

std::string queueKey(std::string_view path, std::string_view suffix) {
  return fmt::format("{}{}.{}", kCapacityPrefix, path, suffix);
}

std::string labelKey(std::string_view path, std::string_view label, std::string_view suffix) {
  if (label.empty()) return queueKey(path, suffix);
  return fmt::format("{}{}.accessible-node-labels.{}.{}", kCapacityPrefix, path, label, suffix);
}

std::string globalKey(std::string_view suffix) {
  return fmt::format("{}{}", kCapacityPrefix, suffix);
}

Status joinErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return Status::ok();
  std::string message;
  for (const std::string& e : errors) {
    if (!message.empty()) message += '\n';
    message += e;
  }
  return Status(StatusCode::kInvalidArgument, message);
}

Status Problems::toStatus() const { return joinErrors(errors_); }

}  // namespace capacity_config

const PartitionConfig& QueueConfig::partition(const std::string& label) const {
  static const PartitionConfig kAbsent = [] {
    PartitionConfig p;
    p.maximumCapacity.fraction = 1;
    return p;
  }();
  auto it = partitions.find(label);
  return it == partitions.end() ? kAbsent : it->second;
}

const QueueConfig* CapacityConfig::find(const std::string& nameOrPath) const {
  auto it = queues.find(nameOrPath);
  if (it != queues.end()) return &it->second;
  auto leaf = leafByName.find(nameOrPath);
  if (leaf == leafByName.end()) return nullptr;
  return &queues.at(leaf->second);
}

bool CapacityConfig::hasAccess(const std::string& path, QueueAcl acl, const std::string& user,
                               const std::vector<std::string>& userGroups) const {
  auto it = queues.find(path);
  while (it != queues.end()) {
    const QueueConfig& q = it->second;
    const AccessControlList& list =
        acl == QueueAcl::kSubmitApplications ? q.submitAcl : q.administerAcl;
    if (list.allows(user, userGroups)) return true;
    if (q.parent.empty()) break;
    it = queues.find(q.parent);
  }
  return false;
}

Result<CapacityConfig> parseCapacityConfig(const Configuration& conf, const ResourceTypes& types,
                                           const AllocationBounds& clusterBounds,
                                           const ClusterLabels& labels) {
  using namespace capacity_config;
  CapacityConfig out;
  Problems problems(conf);
  BuildContext ctx{conf, types, clusterBounds, labels, problems, out, {}};
  readGlobalSettings(ctx);
  if (buildQueueTree(ctx)) {
    readQueueLabels(ctx);
    readQueueCapacities(ctx);
    readQueueSettings(ctx);
    readQueueMappings(ctx);
    warnUnknownQueueKeys(ctx);
  }
  if (problems.hasErrors()) return problems.toStatus();
  out.warnings = problems.warnings();
  return out;
}

}  // namespace spindle
