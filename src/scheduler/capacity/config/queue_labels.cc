// Step 3: node labels per queue (AbstractCSQueue.setupQueueConfigs in Hadoop 2.8-3.x):
//  1. labels named by the queue's own accessible-node-labels.<label>.<suffix> keys;
//  2. accessible-node-labels: root is always "*" (a configured value is ignored with a warning);
//     unset on another queue inherits the parent's; "*" anywhere in the list means all;
//  3. every named label must be a cluster label (CSQueueUtils.checkIfLabelInClusterNodeLabels);
//  4. below root's children, a child's labels must be a subset of its parent's;
//  5. default-node-label-expression: unset inherits the parent's when the queue can access all
//     of the parent's labels; it must be accessible ("Invalid default label expression ...").

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scheduler/capacity/config/config_builder.h"

namespace spindle::capacity_config {
namespace {

constexpr std::string_view kAny = "*";

// Suffixes a label key may carry (accessible-node-labels.<label>.<suffix>).
bool isLabelSuffix(std::string_view suffix) {
  return suffix == "capacity" || suffix == "maximum-capacity" ||
         suffix == "maximum-am-resource-percent";
}

void checkClusterLabel(BuildContext& ctx, const std::string& key, const std::string& label) {
  if (label == kAny || ctx.labels.count(label) > 0) return;
  ctx.problems.error(key, "NodeLabelManager doesn't include label = {}, please check.", label);
}

void readConfiguredLabels(BuildContext& ctx, const QueueConfig& q) {
  const std::string prefix = queueKey(q.path, "accessible-node-labels.");
  std::set<std::string>& labels = ctx.configuredLabels[q.path];
  for (const std::string& key : ctx.conf.namesWithPrefix(prefix)) {
    std::string_view rest = std::string_view(key).substr(prefix.size());
    size_t dot = rest.find('.');
    if (dot == std::string_view::npos || !isLabelSuffix(rest.substr(dot + 1))) {
      ctx.problems.warn(key,
                        "not a per-label setting (expected accessible-node-labels.<label>."
                        "capacity, .maximum-capacity or .maximum-am-resource-percent); ignored");
      continue;
    }
    std::string label(rest.substr(0, dot));
    checkClusterLabel(ctx, key, label);
    labels.insert(label);
  }
}

void readAccessibleLabels(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "accessible-node-labels");
  std::optional<std::string> value = ctx.conf.get(key);
  if (q.parent.empty()) {
    if (value) {
      ctx.problems.warn(key,
                        "Accessible node labels for root queue will be ignored, it will be "
                        "automatically set to \"*\".");
    }
    q.accessibleToAllLabels = true;
    return;
  }
  const QueueConfig& parent = ctx.out.queues.at(q.parent);
  if (!value) {
    q.accessibleToAllLabels = parent.accessibleToAllLabels;
    q.accessibleLabels = parent.accessibleLabels;
    return;
  }
  for (const std::string& label : ctx.conf.getStrings(key)) {
    if (label == kAny) q.accessibleToAllLabels = true;
    checkClusterLabel(ctx, key, label);
    q.accessibleLabels.insert(label);
  }
  if (q.accessibleToAllLabels) q.accessibleLabels.clear();
  // Root accesses everything, so the subset rule starts below root's children.
  if (parent.parent.empty() || parent.accessibleToAllLabels) return;
  if (q.accessibleToAllLabels) {
    ctx.problems.error(key,
                       "Parent's accessible queue is not ANY(*), but child's accessible "
                       "queue is * (queue {}, parent {})",
                       q.path, parent.path);
    return;
  }
  std::vector<std::string> diff;
  std::set_difference(q.accessibleLabels.begin(), q.accessibleLabels.end(),
                      parent.accessibleLabels.begin(), parent.accessibleLabels.end(),
                      std::back_inserter(diff));
  if (!diff.empty()) {
    ctx.problems.error(key,
                       "Some labels of child queue is not a subset of parent queue, these "
                       "labels=[{}] (queue {}, parent {})",
                       fmt::join(diff, ","), q.path, parent.path);
  }
}

std::string accessibleText(const QueueConfig& q) {
  if (q.accessibleToAllLabels) return std::string(kAny);
  return fmt::format("{}", fmt::join(q.accessibleLabels, ","));
}

void readDefaultLabelExpression(BuildContext& ctx, QueueConfig& q) {
  const std::string key = queueKey(q.path, "default-node-label-expression");
  std::optional<std::string> value = ctx.conf.get(key);
  if (!value) {
    if (q.parent.empty()) return;
    const QueueConfig& parent = ctx.out.queues.at(q.parent);
    bool coversParent =
        q.accessibleToAllLabels ||
        (!parent.accessibleToAllLabels &&
         std::includes(q.accessibleLabels.begin(), q.accessibleLabels.end(),
                       parent.accessibleLabels.begin(), parent.accessibleLabels.end()));
    if (coversParent) q.defaultNodeLabelExpression = parent.defaultNodeLabelExpression;
    return;
  }
  q.defaultNodeLabelExpression = std::string(trimView(*value));
  // SchedulerUtils.checkQueueLabelExpression: each "&&" part must be accessible and exist.
  std::string_view expr = q.defaultNodeLabelExpression;
  size_t start = 0;
  while (start <= expr.size()) {
    size_t amp = expr.find("&&", start);
    if (amp == std::string_view::npos) amp = expr.size();
    std::string label(trimView(expr.substr(start, amp - start)));
    start = amp + 2;
    if (label.empty()) continue;
    bool accessible = q.canAccess(label);
    bool exists = ctx.labels.count(label) > 0;
    if (!accessible || !exists) {
      ctx.problems.error(
          key,
          "Invalid default label expression of queue={} doesn't have permission to access "
          "all labels in default label expression. labelExpression of resource request={}. "
          "Queue labels={}{}",
          q.path, q.defaultNodeLabelExpression, accessibleText(q),
          exists ? "" : fmt::format(" (label {} is not a cluster node label)", label));
      return;
    }
  }
}

}  // namespace

void readQueueLabels(BuildContext& ctx) {
  for (const std::string& path : ctx.out.preorder) {
    QueueConfig& q = ctx.out.queues.at(path);
    readConfiguredLabels(ctx, q);
    readAccessibleLabels(ctx, q);
    readDefaultLabelExpression(ctx, q);
  }
}

}  // namespace spindle::capacity_config
