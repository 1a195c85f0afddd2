#include "scheduler/fair/config/queue_placement.h"

#include <optional>

namespace spindle::fair {
namespace {

constexpr std::string_view kRootPrefix = "root.";

std::string withRoot(std::string queue) {
  if (queue.starts_with(kRootPrefix)) return queue;
  std::string out(kRootPrefix);
  out += queue;
  return out;
}

std::string rootChild(std::string_view part) {
  std::string out(kRootPrefix);
  out += cleanQueueNamePart(part);
  return out;
}

// The outcome of one rule: a queue, continue (""), or reject (nullopt).
using RuleOutcome = std::optional<std::string>;

Result<RuleOutcome> assignWithRule(const PlacementRule& rule, const std::string& requested,
                                   const std::string& user, const GroupsProvider& groups,
                                   const QueueCatalog& configured);

// getQueueForApp of each rule, before the create check.
Result<RuleOutcome> queueForApp(const PlacementRule& rule, const std::string& requested,
                                const std::string& user, const GroupsProvider& groups,
                                const QueueCatalog& configured) {
  switch (rule.kind) {
    case PlacementRuleKind::kSpecified:
      if (requested == "default") return RuleOutcome(std::string());
      return RuleOutcome(withRoot(requested));
    case PlacementRuleKind::kUser: return RuleOutcome(rootChild(user));
    case PlacementRuleKind::kPrimaryGroup: {
      const std::vector<std::string> list = groups.groups(user);
      if (list.empty()) return failedPrecondition("No groups returned for user {}", user);
      return RuleOutcome(rootChild(list.front()));
    }
    case PlacementRuleKind::kSecondaryGroupExistingQueue: {
      const std::vector<std::string> list = groups.groups(user);
      for (size_t i = 1; i < list.size(); ++i) {
        std::string queue = rootChild(list[i]);
        if (configured.contains(queue)) return RuleOutcome(queue);
      }
      return RuleOutcome(std::string());
    }
    case PlacementRuleKind::kNestedUserQueue: {
      SPINDLE_ASSIGN_OR_RETURN(RuleOutcome inner,
                               assignWithRule(*rule.nested, requested, user, groups, configured));
      if (!inner || inner->empty()) return inner;
      std::string queue = withRoot(*inner);
      if (configured.leaves.count(queue) > 0) return RuleOutcome(std::string());
      queue += '.';
      queue += cleanQueueNamePart(user);
      return RuleOutcome(queue);
    }
    case PlacementRuleKind::kDefault: return RuleOutcome(rule.defaultQueue);
    case PlacementRuleKind::kReject: return RuleOutcome(std::nullopt);
  }
  return internalError("unknown placement rule");
}

// QueuePlacementRule.assignAppToQueue: the rule's queue if create is set or the queue is
// configured, else continue.
Result<RuleOutcome> assignWithRule(const PlacementRule& rule, const std::string& requested,
                                   const std::string& user, const GroupsProvider& groups,
                                   const QueueCatalog& configured) {
  SPINDLE_ASSIGN_OR_RETURN(RuleOutcome queue,
                           queueForApp(rule, requested, user, groups, configured));
  if (rule.create) return queue;
  if (queue && configured.contains(*queue)) return queue;
  return RuleOutcome(std::string());
}

}  // namespace

const char* placementRuleName(PlacementRuleKind kind) {
  switch (kind) {
    case PlacementRuleKind::kSpecified: return "specified";
    case PlacementRuleKind::kUser: return "user";
    case PlacementRuleKind::kPrimaryGroup: return "primaryGroup";
    case PlacementRuleKind::kSecondaryGroupExistingQueue: return "secondaryGroupExistingQueue";
    case PlacementRuleKind::kNestedUserQueue: return "nestedUserQueue";
    case PlacementRuleKind::kDefault: return "default";
    case PlacementRuleKind::kReject: return "reject";
  }
  return "?";
}

bool PlacementRule::isTerminal() const {
  switch (kind) {
    case PlacementRuleKind::kUser:
    case PlacementRuleKind::kPrimaryGroup: return create;
    case PlacementRuleKind::kDefault:
    case PlacementRuleKind::kReject: return true;
    default: return false;
  }
}

Status validatePlacementPolicy(const PlacementPolicy& policy) {
  if (policy.rules.empty()) return invalidArgument("queuePlacementPolicy has no rules");
  for (size_t i = 0; i + 1 < policy.rules.size(); ++i) {
    if (policy.rules[i].isTerminal()) {
      return invalidArgument("Rules after rule {} in queue placement policy can never be reached",
                             i);
    }
  }
  // Hadoop 3.x (the FS rules rebuilt on the shared placement rules, YARN-8967) accepts a policy
  // that ends in nestedUserQueue with create="true", where 2.x refused it as non-terminal; an app
  // the last rule does not place is then rejected. Only the end of the policy changes: in the
  // middle, nestedUserQueue still lets the rules after it be reached.
  const PlacementRule& last = policy.rules.back();
  const bool endsInCreatingNestedUserQueue =
      last.kind == PlacementRuleKind::kNestedUserQueue && last.create;
  if (!last.isTerminal() && !endsInCreatingNestedUserQueue) {
    return invalidArgument("Could get past last queue placement rule without assigning");
  }
  return Status::ok();
}

PlacementPolicy defaultPlacementPolicy(bool allowUndeclaredPools, bool userAsDefaultQueue) {
  const bool create = allowUndeclaredPools;
  PlacementPolicy policy;
  policy.rules.push_back(PlacementRule::of(PlacementRuleKind::kSpecified, create));
  if (userAsDefaultQueue)
    policy.rules.push_back(PlacementRule::of(PlacementRuleKind::kUser, create));
  if (!userAsDefaultQueue || !create) {
    policy.rules.push_back(PlacementRule::of(PlacementRuleKind::kDefault, true));
  }
  return policy;
}

std::vector<std::string> SimpleGroupsMapping::groups(const std::string& user) const {
  return {user + "group", user + "subgroup1", user + "subgroup2"};
}

std::string cleanQueueNamePart(std::string_view name) {
  const auto begin = name.find_first_not_of(" \t\r\n\f\v");
  if (begin == std::string_view::npos) return {};
  const auto end = name.find_last_not_of(" \t\r\n\f\v");
  std::string out;
  for (char c : name.substr(begin, end - begin + 1)) {
    if (c == '.') {
      out += "_dot_";
    } else {
      out += c;
    }
  }
  return out;
}

Result<Placement> assignAppToQueue(const PlacementPolicy& policy, const std::string& requestedQueue,
                                   const std::string& user, const GroupsProvider& groups,
                                   const QueueCatalog& configured) {
  for (const PlacementRule& rule : policy.rules) {
    SPINDLE_ASSIGN_OR_RETURN(RuleOutcome outcome,
                             assignWithRule(rule, requestedQueue, user, groups, configured));
    if (!outcome) return Placement{.rejected = true, .queue = {}};
    if (!outcome->empty()) return Placement{.rejected = false, .queue = *outcome};
  }
  return failedPrecondition("Should have applied a rule before reaching here (user {}, queue {})",
                            user, requestedQueue);
}

PlacementTarget classifyPlacementTarget(const std::string& queue, const QueueCatalog& existing) {
  if (queue.empty() || queue.front() == '.' || queue.back() == '.' ||
      queue.find("..") != std::string::npos) {
    return PlacementTarget::kInvalidName;
  }
  if (queue == "root") return PlacementTarget::kParentQueue;
  const std::string full = withRoot(queue);
  if (existing.leaves.count(full) > 0) return PlacementTarget::kExistingLeaf;
  if (existing.parents.count(full) > 0) return PlacementTarget::kParentQueue;
  for (size_t dot = full.find('.'); dot != std::string::npos; dot = full.find('.', dot + 1)) {
    if (existing.leaves.count(full.substr(0, dot)) > 0) return PlacementTarget::kUnderLeaf;
  }
  return PlacementTarget::kNewLeaf;
}

}  // namespace spindle::fair
