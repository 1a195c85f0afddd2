// The steps of parseCapacityConfig, each in its own file, sharing one build context.
//
// Order (capacity_config.cc runs them):
//  1. readGlobalSettings   (global_settings.cc)   yarn.scheduler.capacity.* global keys
//  2. buildQueueTree       (queue_tree.cc)        <path>.queues, pre-order, short-name index
//  3. readQueueLabels      (queue_labels.cc)      accessible labels, default label expression
//  4. readQueueCapacities  (queue_capacities.cc)  capacity forms, derived absolutes, sum checks
//  5. readQueueSettings    (queue_settings.cc)    limits, state, ACLs, ordering, allocation, ...
//  6. readQueueMappings    (queue_mappings.cc)    queue-mappings and app-name mappings
//  7. warnUnknownQueueKeys (queue_tree.cc)        keys naming queues that are not in the tree
// Steps 3-5 walk `preorder`, so a parent is resolved before its children (inheritance).
// Every step records problems and carries on; the caller turns them into one Status.
//
// Internal to spindle_capacity_config.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "config/configuration.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"
#include "scheduler/capacity/config/capacity_config.h"
#include "scheduler/capacity/config/capacity_value.h"
#include "scheduler/capacity/config/config_problems.h"

namespace spindle::capacity_config {

struct BuildContext {
  const Configuration& conf;
  const ResourceTypes& types;
  const AllocationBounds& clusterBounds;
  const ClusterLabels& labels;
  Problems& problems;
  CapacityConfig& out;
  // Labels a queue names in its own accessible-node-labels.<label>.* keys.
  std::map<std::string, std::set<std::string>> configuredLabels;
};

// "yarn.scheduler.capacity.<path>.<suffix>".
std::string queueKey(std::string_view path, std::string_view suffix);
// "yarn.scheduler.capacity.<path>.accessible-node-labels.<label>.<suffix>"; for label "" the
// plain queue key.
std::string labelKey(std::string_view path, std::string_view label, std::string_view suffix);
// "yarn.scheduler.capacity.<suffix>".
std::string globalKey(std::string_view suffix);

void readGlobalSettings(BuildContext& ctx);
// False when the tree cannot be built at all (root without children).
bool buildQueueTree(BuildContext& ctx);
void readQueueLabels(BuildContext& ctx);
void readQueueCapacities(BuildContext& ctx);
void readQueueSettings(BuildContext& ctx);
void readQueueMappings(BuildContext& ctx);
void warnUnknownQueueKeys(BuildContext& ctx);

}  // namespace spindle::capacity_config
