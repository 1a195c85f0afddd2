// Queue placement at submission: YARN's legacy UserGroupMappingPlacementRule and
// AppNameMappingPlacementRule, configured by yarn.scheduler.capacity.queue-mappings,
// queue-mappings-override.enable and yarn.scheduler.queue-placement-rules.app-name.
//
//   PlacementRequest req{.queue = "default", .user = "alice", .groups = {"eng", "ops"},
//                        .appName = "etl"};
//   std::string q = placeQueue(config, req, exists);   // e.g. "root.users.alice"
//
// Rules (the Hadoop docs' CapacityScheduler page, 'Queue Mapping based on User or Group'):
//  1. A mapping applies only when the app asked for "default" or the override flag is set.
//  2. User/group mappings first, then app-name mappings; the first mapping that matches and
//     resolves to a queue wins. u:<user>:<q> matches the user (u:%user matches everyone);
//     g:<group>:<q> matches any of the user's groups.
//  3. Placeholders in each path component: %user, %primary_group (the first group),
//     %secondary_group (the first other group for which the resolved queue exists), and for
//     app-name mappings %application.
//  4. No match: the queue the app asked for.
// Stateless.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scheduler/capacity/config/capacity_config.h"

namespace spindle {

struct PlacementRequest {
  std::string queue;
  std::string user;
  std::vector<std::string> groups;  // primary first
  std::string appName;
};

std::string placeQueue(const CapacityConfig& cfg, const PlacementRequest& req,
                       const std::function<bool(const std::string&)>& queueExists);

}  // namespace spindle
