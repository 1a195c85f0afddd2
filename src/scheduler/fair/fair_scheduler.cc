// FairScheduler: creation, app admission and removal, usage bookkeeping, headroom, reload and
// invariants. The update pass is in fair_update.cc, the assignment path in fair_assign.cc.
#include "scheduler/fair/fair_scheduler.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scheduler/groups.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  return s;
}

// QueueManager.ensureRootPrefix.
std::string withRoot(std::string_view name) {
  if (name == "root" || name.rfind("root.", 0) == 0) return std::string(name);
  std::string out = "root.";
  out.append(name);
  return out;
}

Result<SchedulerSettings> fairSettings(const Configuration& conf) {
  // FS normalises asks with its increment allocation (yarn.resource-types.*.increment-allocation)
  // and checks fits on every type.
  return schedulerSettingsFromConfig(conf, "DominantResourceCalculator", /*fairIncrements=*/true);
}

// The allocation file's text, when given inline (scenario files' "fair-scheduler" member) rather
// than as a path in yarn.scheduler.fair.allocation.file.
constexpr std::string_view kAllocationXmlKey = "spindle.fair.allocation-xml";

Result<fair::FairSchedulerConfig> readConfig(const Configuration& conf,
                                             const ResourceTypes& types) {
  if (std::optional<std::string> xml = conf.get(kAllocationXmlKey)) {
    return fair::parseFairSchedulerConfigText(conf, types, *xml, "fair-scheduler.xml");
  }
  return fair::parseFairSchedulerConfig(conf, types);
}

// Users' groups for placement rules and ACLs (Hadoop's hadoop.security.group.mapping): YARN's
// test mapping when named (SimpleGroupsMapping: u -> ugroup, usubgroup1, usubgroup2), else the
// user-private group with hadoop.user.group.static.mapping.overrides winning (Hadoop's Groups).
class StaticGroupsMapping final : public fair::GroupsProvider {
 public:
  explicit StaticGroupsMapping(spindle::GroupsProvider g) : g_(std::move(g)) {}
  std::vector<std::string> groups(const std::string& user) const override {
    return g_.groupsOf(user);
  }

 private:
  spindle::GroupsProvider g_;
};

Result<std::shared_ptr<const fair::GroupsProvider>> groupsFromConfig(const Configuration& conf) {
  const std::string mapping = conf.get("hadoop.security.group.mapping").value_or("");
  const std::string_view simple = "SimpleGroupsMapping";
  if (mapping.size() >= simple.size() &&
      mapping.compare(mapping.size() - simple.size(), simple.size(), simple) == 0) {
    return std::shared_ptr<const fair::GroupsProvider>(
        std::make_shared<fair::SimpleGroupsMapping>());
  }
  if (!conf.get(kStaticGroupMappingKey)) {
    return std::shared_ptr<const fair::GroupsProvider>(std::make_shared<UserNameGroupsMapping>());
  }
  SPINDLE_ASSIGN_OR_RETURN(spindle::GroupsProvider g, spindle::GroupsProvider::fromConfig(conf));
  return std::shared_ptr<const fair::GroupsProvider>(std::make_shared<StaticGroupsMapping>(g));
}

}  // namespace

Result<std::unique_ptr<FairScheduler>> FairScheduler::create(const Configuration& conf,
                                                             const Clock& clock, Rng& rng) {
  SPINDLE_ASSIGN_OR_RETURN(SchedulerSettings s, fairSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(fair::FairSchedulerConfig cfg, readConfig(conf, s.types));
  SPINDLE_ASSIGN_OR_RETURN(std::shared_ptr<const fair::GroupsProvider> groups,
                           groupsFromConfig(conf));
  const std::string file = cfg.allocationFile;
  auto fs = std::make_unique<FairScheduler>(std::move(s), std::move(cfg), clock, rng);
  fs->setGroupsProvider(groups);
  if (!file.empty()) fs->watchAllocationFile(fair::realAllocationFile(file));
  return fs;
}

Result<std::unique_ptr<FairScheduler>> FairScheduler::createWithAllocation(
    const Configuration& conf, std::string_view xml, const Clock& clock, Rng& rng) {
  SPINDLE_ASSIGN_OR_RETURN(SchedulerSettings s, fairSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(
      fair::FairSchedulerConfig cfg,
      fair::parseFairSchedulerConfigText(conf, s.types, xml, "fair-scheduler.xml"));
  SPINDLE_ASSIGN_OR_RETURN(std::shared_ptr<const fair::GroupsProvider> groups,
                           groupsFromConfig(conf));
  auto fs = std::make_unique<FairScheduler>(std::move(s), std::move(cfg), clock, rng);
  fs->setGroupsProvider(groups);
  return fs;
}

FairScheduler::FairScheduler(SchedulerSettings settings, fair::FairSchedulerConfig config,
                             const Clock& clock, Rng& rng)
    : Scheduler(std::move(settings), clock, rng),
      config_(std::move(config)),
      tree_(fair::FsQueueTree::build(
          std::make_shared<const fair::AllocationConfig>(config_.allocation))),
      groups_(std::make_shared<UserNameGroupsMapping>()),
      dominant_(makeDominantResourceCalculator(this->settings().types)),
      heartbeatIntervalMs_(this->settings().nmHeartbeatIntervalMs) {
  tree_.resolveShares(cluster().total(), this->settings().types.count());
}

const FsApp* FairScheduler::fsApp(AppId id) const {
  auto it = fsApps_.find(id);
  return it == fsApps_.end() ? nullptr : &it->second;
}

Result<FsQueue*> FairScheduler::placeApp(const Application& app,
                                         const std::vector<std::string>& groups) {
  const std::string requested = trimmed(app.submission().queue);
  const std::string id = appIdString(app.id());
  if (requested.empty()) {
    return invalidArgument("application {} submitted by user {} with an empty queue name", id,
                           app.user());
  }
  if (requested.front() == '.' || requested.back() == '.') {
    return invalidArgument(
        "application {} submitted by user {} with an illegal queue name {}: the queue name "
        "cannot start or end with a '.'",
        id, app.user(), requested);
  }
  Result<fair::Placement> placed =
      fair::assignAppToQueue(config_.allocation.placementPolicy, requested, app.user(), *groups_,
                             config_.allocation.configuredQueues);
  if (!placed.isOk()) return placed.status().withContext("queue placement of " + id);
  const fair::Placement p = *placed;
  if (p.rejected) {
    return failedPrecondition("application {} rejected by the queue placement policy", id);
  }
  std::string queue = p.queue;
  if (const FsQueue* plan = tree_.find(p.queue); plan != nullptr && plan->config().reservation) {
    SPINDLE_ASSIGN_OR_RETURN(queue, reservationQueueFor(app, *plan));
  }
  Result<FsQueue*> leaf = tree_.leafForPlacement(queue);
  if (!leaf.isOk()) {
    return leaf.status().withContext(
        fmt::format("application {} submitted by user {}", id, app.user()));
  }
  const FsQueue* configured = tree_.nearestConfigured(*leaf);
  if (configured == nullptr ||
      !config_.allocation.hasAccess(configured->path(), QueueAcl::kSubmitApplications, app.user(),
                                    groups)) {
    return failedPrecondition("User {} cannot submit applications to queue {}", app.user(),
                              (*leaf)->path());
  }
  return *leaf;
}

std::optional<Scheduler::QueueMaximumAllocation> FairScheduler::leafMaximumAllocation(
    const FsQueue& leaf) const {
  const std::optional<Resource>& own = leaf.config().maxContainerAllocation;
  if (!own) return std::nullopt;
  return QueueMaximumAllocation{Resource::componentwiseMin(settings().bounds.maximum, *own),
                                leaf.path()};
}

std::optional<Scheduler::QueueMaximumAllocation> FairScheduler::queueMaximumAllocation(
    const Application& app) const {
  const FsApp* fa = fsApp(app.id());
  if (fa == nullptr) return std::nullopt;
  return leafMaximumAllocation(*fa->leaf);
}

Status FairScheduler::admitApp(Application& app) {
  const std::vector<std::string> groups = groups_->groups(app.user());
  SPINDLE_ASSIGN_OR_RETURN(FsQueue * leaf, placeApp(app, groups));
  // RMAppManager validates the AM request against the placed queue's maximum
  // (getMaximumResourceCapability(queue)) and rejects the submission.
  if (auto max = leafMaximumAllocation(*leaf);
      max && !ResourceLimit::of(max->maximum, settings().types.count())
                  .allows(app.submission().amResource)) {
    return invalidArgument(
        "Invalid resource request! Cannot allocate containers as requested resource is greater "
        "than maximum allowed allocation. Requested resource={}, maximum allowed allocation={} "
        "(the AM container of {} in queue {}, maxContainerAllocation)",
        app.submission().amResource.toString(), max->maximum.toString(), appIdString(app.id()),
        leaf->path());
  }
  app.setQueue(leaf->path());
  FsApp fa;
  fa.id = app.id();
  fa.name = appIdString(app.id());
  fa.user = app.user();
  fa.leaf = leaf;
  fa.startTime = app.submitTime();
  fa.lastTimeAtFairShare = app.submitTime();
  fa.app = &app;
  auto [it, inserted] = fsApps_.emplace(app.id(), std::move(fa));
  const size_t index = app.id().value();
  if (appIndex_.size() <= index) appIndex_.resize(index + 1, nullptr);
  appIndex_[index] = &it->second;
  maxRunning_.addApp(tree_, it->second);
  return Status::ok();
}

void FairScheduler::onAppRemoved(Application& app) {
  auto it = fsApps_.find(app.id());
  if (it == fsApps_.end()) return;
  if (it->second.hasPendingAsks) {
    --appsWithPendingAsks_;
    --it->second.leaf->appsWithPendingAsks;
  }
  appIndex_[app.id().value()] = nullptr;
  maxRunning_.removeApp(tree_, fsApps_, it->second);
  fsApps_.erase(it);
}

void FairScheduler::onContainerAllocated(Application& app, const Container& c) {
  FsApp& fa = fsAppAt(app.id());
  chargeContainer(fa, c.resource, +1);
  if (c.isAm) fa.leaf->amUsage += c.resource;
  syncPendingAsks(fa, app);  // the allocation took one container off the asks
}

void FairScheduler::onContainerFinished(Application& app, const Container& c) {
  const size_t index = app.id().value();
  if (index >= appIndex_.size() || appIndex_[index] == nullptr) return;
  FsApp& fa = *appIndex_[index];
  chargeContainer(fa, c.resource, -1);
  if (c.isAm) fa.leaf->amUsage -= c.resource;
  // Nothing to forget while preemption has never marked anything (the common case; the lookup
  // of the app by id in forgetPreemptedContainer was a tenth of a heartbeat). A marked
  // container is always in warnedAt2x_ or on a node of nodePreemption_ (checked with the
  // invariants), so the app's own marks need not be read.
  if (!killAt_.empty() || !nodePreemption_.empty() || !warnedAt2x_.empty()) {
    forgetPreemptedContainer(c);
  }
}

// Demand is read by the update pass (FSAppAttempt.updateDemand), not on every ask change; only
// the heartbeat-skip aggregate follows the asks.
void FairScheduler::onAsksChanged(Application& app) {
  auto it = fsApps_.find(app.id());
  if (it != fsApps_.end()) syncPendingAsks(it->second, app);
}

void FairScheduler::syncPendingAsks(FsApp& fa, const Application& app) {
  const bool pending = app.asks().hasPending();
  if (pending == fa.hasPendingAsks) return;
  fa.hasPendingAsks = pending;
  appsWithPendingAsks_ += pending ? 1 : -1;
  fa.leaf->appsWithPendingAsks += pending ? 1 : -1;
}

bool FairScheduler::holdsPreemptedRoom() const {
  for (const auto& [node, np] : nodePreemption_) {
    if (!np.forApp.empty()) return true;
  }
  return false;
}

bool FairScheduler::hasPendingDemand() const {
  return appsWithPendingAsks_ > 0 || !cluster().reserved().isZero() || !killAt_.empty() ||
         updateDue() || holdsPreemptedRoom();
}

bool FairScheduler::emptyHeartbeatIsNoop(NodeId node) const {
  if (appsWithPendingAsks_ > 0 || !killAt_.empty() || updateDue()) return false;
  if (cluster().node(node).reservation()) return false;
  const auto np = nodePreemption_.find(node);
  return np == nodePreemption_.end() || np->second.forApp.empty();
}

void FairScheduler::onClusterChanged() {
  tree_.resolveShares(cluster().total(), settings().types.count());
  allOrdersChanged();  // min/max shares, and DRF's ratios of the cluster
  for (auto it = nodePreemption_.begin(); it != nodePreemption_.end();) {
    it = cluster().contains(it->first) ? std::next(it) : nodePreemption_.erase(it);
  }
  // A lost node takes its reservation with it (the core cancels it).
  for (auto& [id, fa] : fsApps_) {
    for (auto r = fa.reservedOn.begin(); r != fa.reservedOn.end();) {
      const bool held = cluster().contains(r->first) && cluster().node(r->first).reservation() &&
                        cluster().node(r->first).reservation()->container.app() == id;
      r = held ? std::next(r) : fa.reservedOn.erase(r);
    }
  }
}

std::optional<std::vector<AppId>> FairScheduler::appsInQueue(std::string_view queue) const {
  const FsQueue* q = tree_.find(withRoot(queue));
  if (q == nullptr) return std::nullopt;
  std::vector<AppId> ids;
  std::function<void(const FsQueue&)> collect = [&](const FsQueue& x) {
    ids.insert(ids.end(), x.runnableApps.begin(), x.runnableApps.end());
    ids.insert(ids.end(), x.nonRunnableApps.begin(), x.nonRunnableApps.end());
    for (const auto& c : x.children()) collect(*c);
  };
  collect(*q);
  return ids;
}

std::optional<Resource> FairScheduler::headroom(AppId id) const {
  const Application* a = findApp(id);
  const FsApp* fa = fsApp(id);
  if (a == nullptr || fa == nullptr || isFinal(a->state())) return std::nullopt;
  const FsQueue& leaf = *fa->leaf;
  Resource clusterFree = cluster().total() - cluster().allocated();
  // subtractResourcesOnBlacklistedNodes
  for (NodeId n : cluster().nodeIds()) {
    const Node& node = cluster().node(n);
    if (nodeFilter().checkBlacklist(*a, node) != SkipReason::kNone) {
      clusterFree -= node.unallocated();
    }
  }
  Resource queueRoom;
  for (int i = 0; i < settings().types.count(); ++i) {
    queueRoom.set(i, saturatingSub(leaf.maxShare.get(i), leaf.usage.get(i)));
  }
  const Resource maxAvailable = Resource::componentwiseMin(clusterFree, queueRoom);
  return policyOf(leaf).headroom(leaf.fairShare, leaf.usage, maxAvailable);
}

Status FairScheduler::refreshConfiguration(const Configuration& conf) {
  EventScope scope(*this);
  SPINDLE_ASSIGN_OR_RETURN(fair::FairSchedulerConfig cfg, readConfig(conf, settings().types));
  const std::string file = cfg.allocationFile;
  SPINDLE_RETURN_IF_ERROR(installConfig(std::move(cfg)));
  // From now on the watcher follows the file in force (none when the text came inline).
  if (file.empty()) {
    watcher_.reset();
  } else {
    watchAllocationFile(fair::realAllocationFile(file));
  }
  return Status::ok();
}

Status FairScheduler::refreshAllocation(const Configuration& conf, std::string_view xml) {
  SPINDLE_ASSIGN_OR_RETURN(
      fair::FairSchedulerConfig cfg,
      fair::parseFairSchedulerConfigText(conf, settings().types, xml, "fair-scheduler.xml"));
  return installConfig(std::move(cfg));
}

// QueueManager.updateAllocationConfiguration on reload: existing queues first
// (FSQueue.verifyAndSetPolicyFromConf): a queue that exists keeps its old policy when the new
// one is not allowed under its parent's (logged), and its subtree stays; a queue the reload
// adds is created only when its policy is allowed, as at first load.
void FairScheduler::keepPoliciesOfExistingQueues(fair::AllocationConfig& next) const {
  for (const std::string& path : next.preorder) {
    fair::FairQueueConfig& q = next.queues.at(path);
    const fair::FairQueueConfig* parent = q.parent.empty() ? nullptr : &next.queues.at(q.parent);
    auto allowed = [&](fair::PolicyKind policy) {
      if (q.isParent && !fair::isAllowedOnParent(policy)) return false;
      return parent == nullptr || fair::isChildPolicyAllowed(parent->policy, policy);
    };
    const FsQueue* existing = tree_.find(path);
    if (parent != nullptr && !parent->policyAllowed) {
      q.policyAllowed = false;
    } else if (allowed(q.policy)) {
      q.policyAllowed = true;
    } else if (existing != nullptr && allowed(existing->policy())) {
      next.warnings.push_back(fmt::format(
          "queue {}: policy {} is not allowed under its parent's policy; the reload keeps {}", path,
          fair::policyName(q.policy), fair::policyName(existing->policy())));
      q.policy = existing->policy();
      q.policyAllowed = true;
    } else {
      q.policyAllowed = false;
    }
  }
}

Status FairScheduler::installConfig(fair::FairSchedulerConfig cfg) {
  keepPoliciesOfExistingQueues(cfg.allocation);
  // Validate on a new tree: every live app must still have a leaf to live in.
  fair::FsQueueTree next =
      fair::FsQueueTree::build(std::make_shared<const fair::AllocationConfig>(cfg.allocation));
  next.resolveShares(cluster().total(), settings().types.count());
  restorePlanQueues(next);
  std::map<AppId, FsQueue*> leaves;
  std::vector<std::string> errors;
  for (const auto& [id, fa] : fsApps_) {
    Result<FsQueue*> leaf = next.leafForPlacement(fa.leaf->path());
    if (leaf.isOk()) {
      leaves[id] = *leaf;
    } else {
      errors.push_back(
          fmt::format("{} has live app {}: {}", fa.leaf->path(), fa.name, leaf.status().message()));
    }
  }
  if (!errors.empty()) {
    return failedPrecondition("allocation reload refused; nothing changed:\n{}",
                              fmt::join(errors, "\n"));
  }
  // Commit: move every app (and its usage) into the new tree.
  config_ = std::move(cfg);
  tree_ = std::move(next);
  for (auto& [id, fa] : fsApps_) {
    const Application& a = *apps().at(id);
    fa.leaf = leaves.at(id);
    fa.leaf->addUsage(a.used(), +1);
    if (fa.hasPendingAsks) ++fa.leaf->appsWithPendingAsks;
    fa.leaf->amUsage += a.amUsed();
    if (fa.runnable) {
      fa.leaf->runnableApps.push_back(id);
      fa.leaf->addRunnable(1);
    } else {
      fa.leaf->nonRunnableApps.push_back(id);
    }
  }
  maxRunning_.reload(tree_, fsApps_);
  allOrdersChanged();
  update();
  return Status::ok();
}

// Besides the queue invariants (fs_queue.h) and the preemption marks, every cache the hot path
// keeps, against what it caches (a failure names the cache, the queue or app, kept and fresh):
//  - appIndex_ (FsApp by app id value) and each FsApp's id, name, leaf (the app's queue) and
//    user;
//  - FsApp::hasPendingAsks and appsWithPendingAsks_ against the asks;
//  - FsApp::markedResource against the marked containers;
//  - each app's delay-scheduling flat vector (LocalityDelay::check);
//  - each queue's kept policy order: members, views, fair-share keys, name ranks, hints
//    (checkOrder, fair_order.cc).
// Linear in apps + queues + containers (sorts of each order's members: n log n).
Status FairScheduler::checkSchedulerInvariants() const {
  std::map<const FsQueue*, Resource> usage, amUsage;
  std::map<const FsQueue*, int32_t> runnable;
  // Where each app id is listed (leaf, runnable or not, how often), in one pass over the leaves
  // rather than a scan of the leaf's lists per app.
  struct Listing {
    const FsQueue* leaf = nullptr;
    int runnable = 0;
    int nonRunnable = 0;
  };
  std::vector<Listing> listed(appIndex_.size());
  size_t listedTotal = 0;
  for (const FsQueue* q : tree_.preorder()) {
    for (const auto* list : {&q->runnableApps, &q->nonRunnableApps}) {
      for (AppId id : *list) {
        if (id.value() >= listed.size()) {
          return internalError("FS: {} lists an unknown app {}", q->path(), appIdString(id));
        }
        Listing& l = listed[id.value()];
        l.leaf = q;
        ++(list == &q->runnableApps ? l.runnable : l.nonRunnable);
        ++listedTotal;
      }
    }
  }
  if (listedTotal != apps().size()) {
    return internalError("FS: the leaves list {} apps, {} are live", listedTotal, apps().size());
  }
  for (const auto& [id, a] : apps()) {
    const FsApp* fa = fsApp(id);
    if (fa == nullptr) return internalError("FS: live app {} has no queue", appIdString(id));
    if (id.value() >= listed.size()) {
      return internalError("FS: app {} is not in the app index", appIdString(id));
    }
    const Listing& l = listed[id.value()];
    if (l.leaf != fa->leaf || l.runnable != (fa->runnable ? 1 : 0) ||
        l.nonRunnable != (fa->runnable ? 0 : 1)) {
      return internalError("FS: app {} not listed once in {}", fa->name, fa->leaf->path());
    }
    if (fa->id != id || fa->name != appIdString(id) || fa->user != a->user() ||
        fa->leaf->path() != a->queue()) {
      return internalError(
          "FS: app {} kept (id {}, name {}, user {}, leaf {}) != the app's (user {}, queue {})",
          appIdString(id), appIdString(fa->id), fa->name, fa->user, fa->leaf->path(), a->user(),
          a->queue());
    }
    if (a->asks().hasPending() != fa->hasPendingAsks) {
      return internalError("FS: app {} pending-asks flag {} != its asks' {}", fa->name,
                           fa->hasPendingAsks, a->asks().hasPending());
    }
    Resource marked;
    for (ContainerId c : fa->markedForPreemption) {
      const Container* live = findContainer(c);
      if (live != nullptr) marked += live->resource;
    }
    if (marked != fa->markedResource) {
      return internalError("FS: app {} marked resource {} != its marked containers {}", fa->name,
                           fa->markedResource.toString(), marked.toString());
    }
    SPINDLE_RETURN_IF_ERROR(fa->locality.check().withContext(fmt::format("FS: app {}", fa->name)));
    for (const FsQueue* q = fa->leaf; q != nullptr; q = q->parent()) {
      usage[q] += a->used();
      if (fa->runnable) ++runnable[q];
    }
    amUsage[fa->leaf] += a->amUsed();
    if (fa->app != a.get() || id.value() >= appIndex_.size() || appIndex_[id.value()] != fa) {
      return internalError("FS: app {} is not indexed to its state", fa->name);
    }
    if (a->asks().hasPending() && !fa->hasPendingAsks) {
      return internalError("FS: app {} has pending asks but is not counted as pending", fa->name);
    }
    for (const auto& [node, key] : fa->reservedOn) {
      const auto& r = cluster().node(node).reservation();
      if (!r || r->container.app() != id) {
        return internalError("FS: {} records a reservation on {} that the node does not hold",
                             fa->name, cluster().nodeName(node));
      }
    }
  }
  if (fsApps_.size() != apps().size()) return internalError("FS: state kept for finished apps");
  size_t indexed = 0;
  for (const FsApp* fa : appIndex_) indexed += fa != nullptr ? 1 : 0;
  if (indexed != fsApps_.size()) {
    return internalError("FS: the app index holds {} apps, {} are live", indexed, fsApps_.size());
  }
  int32_t counted = 0;
  std::map<const FsQueue*, int32_t> pendingInLeaf;
  for (const auto& [id, fa] : fsApps_) {
    counted += fa.hasPendingAsks ? 1 : 0;
    if (fa.hasPendingAsks) ++pendingInLeaf[fa.leaf];
  }
  for (const FsQueue* q : tree_.preorder()) {
    const auto it = pendingInLeaf.find(q);
    const int32_t expected = it == pendingInLeaf.end() ? 0 : it->second;
    if (q->appsWithPendingAsks != expected) {
      return internalError("FS: {} counts {} apps with pending asks, its apps have {}", q->path(),
                           q->appsWithPendingAsks, expected);
    }
  }
  if (counted != appsWithPendingAsks_) {
    return internalError("FS: {} apps flagged with pending asks, aggregate says {}", counted,
                         appsWithPendingAsks_);
  }
  for (const auto& [c, at] : killAt_) {
    const FsApp* owner = fsApp(c.app());
    if (findContainer(c) == nullptr || owner == nullptr || !owner->markedForPreemption.count(c)) {
      return internalError("FS: container {} awaits preemption but is not live and marked",
                           containerIdString(c));
    }
  }
  for (const auto& [c, at] : warnedAt2x_) {
    const FsApp* owner = fsApp(c.app());
    if (findContainer(c) == nullptr || owner == nullptr || !owner->markedForPreemption.count(c)) {
      return internalError("FS: container {} was warned (2.x) but is not live and marked",
                           containerIdString(c));
    }
  }
  for (const auto& [id, fa] : fsApps_) {
    for (ContainerId c : fa.markedForPreemption) {
      const Container* live = findContainer(c);
      const auto np = live != nullptr ? nodePreemption_.find(live->node) : nodePreemption_.end();
      const bool onNode = np != nodePreemption_.end() && np->second.containers.count(c);
      if (!onNode && !warnedAt2x_.count(c)) {
        return internalError(
            "FS: container {} is marked but neither warned (2.x) nor held on "
            "its node (3.x)",
            containerIdString(c));
      }
    }
  }
  for (const FsQueue* q : tree_.preorder()) {
    SPINDLE_RETURN_IF_ERROR(checkOrder(*q));
    if (!(q->usage == usage[q])) {
      return internalError("FS: queue {} usage {} != sum of its apps {}", q->path(),
                           q->usage.toString(), usage[q].toString());
    }
    if (q->isLeaf() && !(q->amUsage == amUsage[q])) {
      return internalError("FS: queue {} AM usage {} != its AM containers {}", q->path(),
                           q->amUsage.toString(), amUsage[q].toString());
    }
    if (q->numRunnable != runnable[q]) {
      return internalError("FS: queue {} counts {} runnable apps, has {}", q->path(),
                           q->numRunnable, runnable[q]);
    }
  }
  return Status::ok();
}

}  // namespace spindle
