// The Fair Scheduler's queue placement policy (2.x-style FS/QueuePlacementPolicy.java and
// FS/QueuePlacementRule.java; the Hadoop docs' FairScheduler page, 'Allocation file format';
// vectors QP-*): the rules of <queuePlacementPolicy>, their validation, the policy used when the
// file has none, and a pure evaluator.
//
//   PlacementPolicy policy = defaultPlacementPolicy(/*allowUndeclaredPools=*/true,
//                                                   /*userAsDefaultQueue=*/true);
//   SimpleGroupsMapping groups;                          // u -> ugroup, usubgroup1, usubgroup2
//   QueueCatalog configured{.leaves = {"root.a"}, .parents = {"root.p"}};
//   Result<Placement> p = assignAppToQueue(policy, "default", "alice", groups, configured);
//   if (p.isOk() && !p->rejected) use(p->queue);          // "root.alice"
//
// Evaluation (QueuePlacementPolicy.assignAppToQueue): rules are tried in order. Each yields a
// queue, "continue" or "reject". A rule with create=false turns a queue that is neither a
// configured leaf nor a configured parent into "continue". The first queue or reject wins.
// Running past the last rule is YARN's IllegalStateException ("Should have applied a rule before
// reaching here"), an error here; so is primaryGroup for a user without groups (IOException).
// Whether the chosen name can hold the app (a leaf, not a parent, not under a leaf) is decided
// by classifyPlacementTarget.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace spindle::fair {

enum class PlacementRuleKind {
  kSpecified,                    // the requested queue ("default" -> continue)
  kUser,                         // root.<user>
  kPrimaryGroup,                 // root.<first group>
  kSecondaryGroupExistingQueue,  // root.<first later group> that is a configured queue
  kNestedUserQueue,              // <nested rule's queue>.<user>
  kDefault,                      // the `queue` attribute, or root.default
  kReject,
};

// The XML name of a rule ("specified", "primaryGroup", ...).
const char* placementRuleName(PlacementRuleKind kind);

struct PlacementRule {
  PlacementRuleKind kind = PlacementRuleKind::kSpecified;
  bool create = true;                           // the `create` attribute
  std::string defaultQueue = "root.default";    // kDefault: the `queue` attribute, root.-prefixed
  std::shared_ptr<const PlacementRule> nested;  // kNestedUserQueue only
  int line = 0;                                 // where it was declared (0: built in)
  static PlacementRule of(PlacementRuleKind kind, bool create) {
    PlacementRule r;
    r.kind = kind;
    r.create = create;
    return r;
  }
  // A rule that never continues: user and primaryGroup when create=true, default, reject.
  bool isTerminal() const;
};

struct PlacementPolicy {
  std::vector<PlacementRule> rules;
};

// The checks of QueuePlacementPolicy's constructor: a terminal rule before the last one is
// "Rules after rule <i> in queue placement policy can never be reached"; a non-terminal last
// rule is "Could get past last queue placement rule without assigning", except that a policy may
// end in nestedUserQueue with create="true" (Hadoop 3.x; 2.x refused it). An empty policy is an
// error too (YARN would fail with an index error).
Status validatePlacementPolicy(const PlacementPolicy& policy);

// QueuePlacementPolicy.fromConfiguration, used when the file has no <queuePlacementPolicy>:
// specified(create); user(create) if userAsDefaultQueue; default(create=true) if
// !userAsDefaultQueue || !create, where create = allowUndeclaredPools.
PlacementPolicy defaultPlacementPolicy(bool allowUndeclaredPools, bool userAsDefaultQueue);

// Hadoop's group lookup (Groups.getGroups): the user's groups, primary first.
class GroupsProvider {
 public:
  virtual ~GroupsProvider() = default;
  virtual std::vector<std::string> groups(const std::string& user) const = 0;
};

// The mapping YARN's tests configure (TestQueuePlacementPolicy's SimpleGroupsMapping): user u
// belongs to "<u>group", "<u>subgroup1" and "<u>subgroup2", in that order.
class SimpleGroupsMapping : public GroupsProvider {
 public:
  std::vector<std::string> groups(const std::string& user) const override;
};

// The queues declared in the allocation file, by type (AllocationConfiguration's
// configuredQueues), full names with the root. prefix.
struct QueueCatalog {
  std::set<std::string> leaves;
  std::set<std::string> parents;
  bool contains(const std::string& queue) const {
    return leaves.count(queue) > 0 || parents.count(queue) > 0;
  }
};

struct Placement {
  bool rejected = false;
  std::string queue;  // full name ("root.a.b") when not rejected
};

// QueuePlacementRule's cleanName: trimmed, '.' replaced by "_dot_".
std::string cleanQueueNamePart(std::string_view name);

Result<Placement> assignAppToQueue(const PlacementPolicy& policy, const std::string& requestedQueue,
                                   const std::string& user, const GroupsProvider& groups,
                                   const QueueCatalog& configured);

// Whether a placement result can hold an app, judged against the queues that exist now
// (QueueManager.getLeafQueue(name, create=true)):
enum class PlacementTarget {
  kExistingLeaf,  // an existing leaf queue
  kNewLeaf,       // does not exist; it (and any missing parents) would be created
  kParentQueue,   // an existing parent: no queue ("assignToQueue returns null")
  kUnderLeaf,     // an ancestor is an existing leaf: cannot nest under a leaf
  kInvalidName,   // empty, empty component, or leading/trailing '.'
};
PlacementTarget classifyPlacementTarget(const std::string& queue, const QueueCatalog& existing);

}  // namespace spindle::fair
