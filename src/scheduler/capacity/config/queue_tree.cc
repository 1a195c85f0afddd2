// Step 2: the queue hierarchy from <path>.queues (CapacitySchedulerQueueManager.parseQueue), and
// step 7: warnings for keys that name queues which are not in that hierarchy.

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "base/near_miss.h"
#include "scheduler/capacity/config/config_builder.h"

namespace spindle::capacity_config {
namespace {

constexpr std::string_view kRoot = "root";

bool hasWhitespace(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// Deeper than any real hierarchy; bounds the recursion below and the size of the paths.
constexpr int kMaxQueueDepth = 64;

// Adds `path` and, depth first, its children; names are trimmed (getStrings trims).
void addQueue(BuildContext& ctx, const std::string& path, const std::string& name,
              const std::string& parent, int depth = 1) {
  QueueConfig q;
  q.path = path;
  q.name = name;
  q.parent = parent;
  const std::string key = queueKey(path, "queues");
  std::set<std::string> seen;
  for (const std::string& child : ctx.conf.getStrings(key)) {
    if (child.find('.') != std::string::npos || hasWhitespace(child)) {
      ctx.problems.error(key,
                         "Illegal queue name '{}' in child queues of {}: a name may not "
                         "contain '.' or whitespace",
                         child, path);
      continue;
    }
    if (!seen.insert(child).second) {
      ctx.problems.error(key, "Duplicate child queue name '{}' in child queues of {}", child, path);
      continue;
    }
    q.children.push_back(path + "." + child);
  }
  if (depth == kMaxQueueDepth && !q.children.empty()) {
    ctx.problems.error(key, "queue {} is nested deeper than {} levels (root is level 1)",
                       q.children.front(), kMaxQueueDepth);
    q.children.clear();
  }
  std::vector<std::string> children = q.children;
  ctx.out.preorder.push_back(path);
  ctx.out.queues.emplace(path, std::move(q));
  for (const std::string& childPath : children) {
    addQueue(ctx, childPath, childPath.substr(path.size() + 1), path, depth + 1);
  }
}

// Short names that identify exactly one queue of the whole tree; the leaves among them.
void indexLeafNames(CapacityConfig& out) {
  std::map<std::string, int> count;
  for (const auto& [path, q] : out.queues) ++count[q.name];
  for (const auto& [path, q] : out.queues) {
    if (q.isLeaf() && count[q.name] == 1) out.leafByName.emplace(q.name, path);
  }
}

// <x>.queues keys whose path does not start at root can never be part of the tree.
void checkQueuesKeysStartAtRoot(BuildContext& ctx) {
  constexpr std::string_view kSuffix = ".queues";
  const std::string prefix = kCapacityPrefix;
  for (const std::string& key : ctx.conf.namesWithPrefix(prefix)) {
    if (!std::string_view(key).ends_with(kSuffix)) continue;
    std::string path = key.substr(prefix.size(), key.size() - prefix.size() - kSuffix.size());
    if (path == kRoot || path.starts_with("root.")) continue;
    ctx.problems.error(key, "queue path '{}' must start with root (e.g. root.{})", path, path);
  }
}

// First segments of per-queue keys (the Hadoop docs' CapacityScheduler page, 'Queue Properties',
// plus keys of components that read them elsewhere: reservations, auto-created queues, lifetimes).
constexpr std::string_view kQueueKeyHeads[] = {"queues",
                                               "capacity",
                                               "maximum-capacity",
                                               "minimum-user-limit-percent",
                                               "user-limit-factor",
                                               "user-settings",
                                               "maximum-applications",
                                               "maximum-am-resource-percent",
                                               "max-parallel-apps",
                                               "state",
                                               "acl_submit_applications",
                                               "acl_administer_queue",
                                               "acl_application_max_priority",
                                               "ordering-policy",
                                               "priority",
                                               "default-application-priority",
                                               "accessible-node-labels",
                                               "default-node-label-expression",
                                               "maximum-allocation-mb",
                                               "maximum-allocation-vcores",
                                               "maximum-allocation",
                                               "disable_preemption",
                                               "intra-queue-preemption",
                                               "maximum-application-lifetime",
                                               "default-application-lifetime",
                                               "allow-zero-capacity-sum",
                                               "auto-create-child-queue",
                                               "leaf-queue-template",
                                               "auto-queue-creation-v2",
                                               "reservable",
                                               "show-reservations-as-queues",
                                               "average-capacity",
                                               "instantaneous-max-capacity",
                                               "multi-node-placement-enabled"};

bool isQueueKeyHead(std::string_view head) {
  if (head.starts_with("reservation")) return true;  // reservation-agent, -policy, -window, ...
  return std::find(std::begin(kQueueKeyHeads), std::end(kQueueKeyHeads), head) !=
         std::end(kQueueKeyHeads);
}

}  // namespace

bool buildQueueTree(BuildContext& ctx) {
  checkQueuesKeysStartAtRoot(ctx);
  const std::string rootKey = queueKey(kRoot, "queues");
  if (ctx.conf.getStrings(rootKey).empty()) {
    // CapacitySchedulerQueueManager.parseQueue on a root without children.
    ctx.problems.error(rootKey, "Queue configuration missing child queue names for root");
    return false;
  }
  addQueue(ctx, std::string(kRoot), std::string(kRoot), "");
  indexLeafNames(ctx.out);
  return true;
}

void warnUnknownQueueKeys(BuildContext& ctx) {
  const std::string prefix = kCapacityPrefix;
  for (const std::string& key : ctx.conf.namesWithPrefix(prefix + "root.")) {
    std::string_view rest = std::string_view(key).substr(prefix.size());
    // The deepest queue of the tree that the key starts with.
    std::string_view owner = kRoot;
    size_t dot = rest.find('.');
    while (dot != std::string_view::npos) {
      std::string_view candidate = rest.substr(0, dot);
      if (ctx.out.queues.count(std::string(candidate)) == 0) break;
      owner = candidate;
      dot = rest.find('.', dot + 1);
    }
    std::string_view tail = rest.substr(owner.size() + 1);
    std::string_view head = tail.substr(0, tail.find('.'));
    if (isQueueKeyHead(head)) continue;
    const std::optional<std::string> hint = closestName(head, kQueueKeyHeads);
    ctx.problems.warn(key,
                      "'{}' is neither a child queue listed in {} nor a known setting of "
                      "queue {}; ignored{}",
                      head, queueKey(owner, "queues"), owner,
                      hint ? fmt::format(" (did you mean '{}'?)", *hint) : std::string());
  }
}

}  // namespace spindle::capacity_config
