// Step 6: yarn.scheduler.capacity.queue-mappings (CapacitySchedulerConfiguration
// .getQueueMappings) and yarn.scheduler.queue-placement-rules.app-name (getQueueMappingEntity).
//  1. Entries are comma-separated and trimmed; fields are ':'-separated, trimmed, empty fields
//     dropped (StringTokenizer), so "u::q" has two fields.
//  2. queue-mappings entries need three fields "u|g:<source>:<queue>", else "Illegal queue
//     mapping <entry>"; app-name entries need two, "<appName>:<queue>".
//  3. A target without a placeholder (%user, %primary_group, %secondary_group, %application)
//     must name a leaf queue, by full path or unique short name, as UserGroupMappingPlacementRule
//     requires ("mapping contains invalid or non-leaf queue").

#include <string>
#include <vector>

#include "base/strings.h"
#include "scheduler/capacity/config/config_builder.h"

namespace spindle::capacity_config {
namespace {

std::vector<std::string> fields(std::string_view entry) { return splitTrimmed(entry, ":"); }

void splitTarget(const std::string& queue, std::string& parent, std::string& leaf) {
  size_t dot = queue.rfind('.');
  parent = dot == std::string::npos ? "" : queue.substr(0, dot);
  leaf = dot == std::string::npos ? queue : queue.substr(dot + 1);
}

void checkStaticTarget(BuildContext& ctx, const std::string& key, const std::string& entry,
                       const std::string& queue) {
  if (queue.find('%') != std::string::npos) return;
  const QueueConfig* q = ctx.out.find(queue);
  if (q != nullptr && q->isLeaf()) return;
  std::string why = q != nullptr ? "it is a parent queue" : "no such queue";
  if (q == nullptr) {
    int leaves = 0;
    int parents = 0;
    for (const auto& [path, each] : ctx.out.queues) {
      if (each.name != queue) continue;
      (each.isLeaf() ? leaves : parents)++;
    }
    if (leaves + parents > 1)
      why = "the short name is ambiguous; use the full path";
    else if (parents == 1)
      why = "it is a parent queue";
  }
  ctx.problems.error(key, "mapping contains invalid or non-leaf queue {} (entry '{}'): {}", queue,
                     entry, why);
}

}  // namespace

void readQueueMappings(BuildContext& ctx) {
  const std::string key = globalKey("queue-mappings");
  for (const std::string& entry : ctx.conf.getStrings(key)) {
    std::vector<std::string> f = fields(entry);
    if (f.size() != 3) {
      ctx.problems.error(key,
                         "Illegal queue mapping {} (expected u:<user>:<queue> or "
                         "g:<group>:<queue>)",
                         entry);
      continue;
    }
    QueueMapping m;
    if (f[0] == "u") {
      m.kind = MappingKind::kUser;
    } else if (f[0] == "g") {
      m.kind = MappingKind::kGroup;
    } else {
      ctx.problems.error(key,
                         "Illegal queue mapping {} (unknown mapping prefix {}; expected u "
                         "or g)",
                         entry, f[0]);
      continue;
    }
    m.source = f[1];
    m.queue = f[2];
    splitTarget(m.queue, m.parentQueue, m.leafQueue);
    checkStaticTarget(ctx, key, entry, m.queue);
    ctx.out.queueMappings.push_back(std::move(m));
  }
  const std::string appKey = "yarn.scheduler.queue-placement-rules.app-name";
  for (const std::string& entry : ctx.conf.getStrings(appKey)) {
    std::vector<std::string> f = fields(entry);
    if (f.size() != 2) {
      ctx.problems.error(appKey, "Illegal queue mapping {} (expected <appName>:<queue>)", entry);
      continue;
    }
    checkStaticTarget(ctx, appKey, entry, f[1]);
    ctx.out.appNameMappings.emplace_back(f[0], f[1]);
  }
}

}  // namespace spindle::capacity_config
