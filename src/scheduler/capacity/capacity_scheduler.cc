#include "scheduler/capacity/capacity_scheduler.h"

#include <algorithm>
#include <cmath>

#include <fmt/ranges.h>

#include "scheduler/capacity/config/priority_acl.h"
#include "scheduler/capacity/queue_placement.h"

namespace spindle {

namespace {
const Resource kNoResource;
}  // namespace

const char* toString(CsAppPhase p) {
  switch (p) {
    case CsAppPhase::kNonRunnable: return "NON_RUNNABLE";
    case CsAppPhase::kPending: return "PENDING";
    case CsAppPhase::kActive: return "ACTIVE";
  }
  return "?";
}

CapacityScheduler::CapacityScheduler(SchedulerSettings settings, CapacityConfig config,
                                     GroupsProvider groups, const Clock& clock, Rng& rng)
    : Scheduler(std::move(settings), clock, rng),
      config_(std::move(config)),
      groups_(std::move(groups)) {
  aclEnabled_ = this->settings().aclEnabled;
  clusterMaxPriority_ = this->settings().maxApplicationPriority;
  if (config_.clusterMaxApplicationPriority > clusterMaxPriority_) {
    clusterMaxPriority_ = config_.clusterMaxApplicationPriority;
  }
  tree_ = QueueTree::build(config_);
  syncNow();
}

CapacityScheduler::~CapacityScheduler() = default;

// --- Cluster sync ----------------------------------------------------------------------------

// Node events alone leave the re-resolution (O(queues)) to settle() or the next other event.
void CapacityScheduler::finishEvent() {
  if (dirty_ && !onlyNodesChanged_) syncNow();
}

void CapacityScheduler::sync() {
  if (dirty_) syncNow();
}

// A removed node's reservation was already released by the base (cluster and app totals);
// drop it from the queue and user aggregates too.
void CapacityScheduler::onClusterChanged() {
  if (!dirty_) onlyNodesChanged_ = true;
  dirty_ = true;
  countNewNodes();
  for (auto it = reservedNodes_.begin(); it != reservedNodes_.end();) {
    const auto [node, app] = *it;
    ++it;
    if (cluster().contains(node) && cluster().node(node).reservation()) continue;
    auto s = csApps_.find(app);
    if (s != csApps_.end()) dropReservationRecord(s->second, node);
  }
}

// Node ids are issued in order and never reused: ids from nodesCounted_ on are nodes added since
// the last call, whose totals are added to their partitions (and, in async mode, to the node
// index) here. Any other change (a node removed or resized) recounts every node at the next
// sync and rebuilds the node index now. Each event changes one node, so adding n nodes one at a
// time costs O(n), not O(n^2).
void CapacityScheduler::countNewNodes() {
  const size_t issued =
      static_cast<size_t>(cluster().numNodes()) + static_cast<size_t>(cluster().removedNodes());
  if (issued == nodesCounted_) {
    recountPartitions_ = true;
    if (config_.scheduleAsynchronously) rebuildNodeIndex();
    return;
  }
  for (size_t i = nodesCounted_; i < issued; ++i) {
    const NodeId id(static_cast<uint32_t>(i));
    if (!cluster().contains(id)) continue;
    const Node& n = cluster().node(id);
    countedPartitions_[n.partition()] += n.total();
    if (config_.scheduleAsynchronously) indexNode(id);
  }
  nodesCounted_ = issued;
}

void CapacityScheduler::recountPartitions() {
  recountPartitions_ = false;
  nodesCounted_ =
      static_cast<size_t>(cluster().numNodes()) + static_cast<size_t>(cluster().removedNodes());
  countedPartitions_.clear();
  countedPartitions_[kDefaultPartition] = Resource();
  for (const auto& [name, label] : cluster().nodeLabels()) countedPartitions_[name] = Resource();
  for (NodeId id : cluster().nodeIds()) {
    const Node& n = cluster().node(id);
    countedPartitions_[n.partition()] += n.total();
  }
  if (config_.scheduleAsynchronously) rebuildNodeIndex();
}

void CapacityScheduler::syncNow() {
  dirty_ = false;
  onlyNodesChanged_ = false;
  if (!cluster().nodeLabels().empty() || !parsedLabels_.empty()) reparseForLabels();
  if (recountPartitions_) recountPartitions();
  partitions_ = countedPartitions_;
  tree_->resolve(calculator(), partitions_, settings().bounds.minimum, settings().bounds.maximum);
  defaultPartitionResource_ = partitions_[kDefaultPartition];
  // updateChildKey's divisors change only here.
  noPartitionDivisor_ = calculator().isInvalidDivisor(defaultPartitionResource_);
  for (CsQueue* q : tree_->preorder()) {
    const Resource& min = q->cap(kDefaultPartition).effectiveMin;
    q->noMinDivisor = calculator().isInvalidDivisor(min) || min.isZero();
  }
  for (CsQueue* q : tree_->leaves()) updateMaximumApplications(*q);
  size_t maxDepth = 0;
  for (CsQueue* q : tree_->preorder()) {
    if (q->parent() != nullptr) {
      CsQueue::ChildKey& k = q->parent()->childKeys[q->indexInParent];
      k.leaf = q->isLeaf();
      k.priority = q->config().priority;
      auto pc = q->config().partitions.find(kDefaultPartition);
      k.configuredMin =
          pc != q->config().partitions.end() && pc->second.capacity.mode == CapacityMode::kAbsolute
              ? &pc->second.capacity.absolute
              : nullptr;
    }
    updateChildKey(*q);
    maxDepth = std::max(maxDepth, static_cast<size_t>(q->depth()));
  }
  for (CsQueue* q : tree_->preorder()) {
    q->simpleChildOrder = !q->priorityUtilization;
    for (const CsQueue::ChildKey& k : q->childKeys) {
      if (!(k.absCapacity > 0) || (k.configuredMin != nullptr && !k.configuredMin->isZero())) {
        q->simpleChildOrder = false;
      }
    }
  }
  // Sized once: nested calls hold references into it.
  if (sortScratch_.size() < maxDepth + 1) sortScratch_.resize(maxDepth + 1);
  if (skipScratch_.size() < maxDepth + 1) skipScratch_.resize(maxDepth + 1);
  recomputeUserRatios();
  for (CsQueue* leaf : tree_->leaves()) activateApplications(*leaf);
}

const QueueTree& CapacityScheduler::queues() const { return *tree_; }

const CsQueue* CapacityScheduler::findQueue(const std::string& nameOrPath) const {
  return tree_->find(nameOrPath);
}

const CsApp* CapacityScheduler::csApp(AppId id) const {
  auto it = csApps_.find(id);
  return it == csApps_.end() ? nullptr : &it->second;
}

Resource CapacityScheduler::partitionResource(const std::string& partition) const {
  auto it = partitions_.find(partition);
  return it == partitions_.end() ? Resource() : it->second;
}

const std::map<std::string, Resource>& CapacityScheduler::partitionResources() const {
  return partitions_;
}

// AbstractLeafQueue.updateMaximumApplications: absolute-mode queues derive maximum-applications
// from the capacity resolved against the cluster (the parser could not).
void CapacityScheduler::updateMaximumApplications(CsQueue& q) {
  const QueueConfig& qc = q.config();
  q.maxApplications = qc.maximumApplications;
  q.maxApplicationsPerUser = qc.maxApplicationsPerUser;
  bool absolute = false;
  for (const auto& [label, pc] : qc.partitions) {
    absolute = absolute || pc.capacity.mode == CapacityMode::kAbsolute;
  }
  if (!absolute || qc.configuredMaximumApplications >= 0) return;
  int32_t maxApps = 0;
  for (const auto& [p, cap] : q.caps) {
    const float byLabel =
        static_cast<float>(config_.maximumApplications) * static_cast<float>(cap.absCapacity);
    maxApps = std::max(maxApps, static_cast<int32_t>(byLabel));
  }
  q.maxApplications = maxApps;
  if (qc.userLimitFactor == -1) {
    q.maxApplicationsPerUser = maxApps;
  } else {
    const float perUser = static_cast<float>(maxApps) *
                          (static_cast<float>(qc.minimumUserLimitPercent) / 100.0f) *
                          static_cast<float>(qc.userLimitFactor);
    q.maxApplicationsPerUser =
        std::min(maxApps, perUser >= static_cast<float>(INT32_MAX) ? INT32_MAX
                                                                   : static_cast<int32_t>(perUser));
  }
}

// --- Admission ---------------------------------------------------------------------------------

Result<CsQueue*> CapacityScheduler::placeApp(const Application& app) const {
  PlacementRequest req{app.queue(), app.user(), groups_.groupsOf(app.user()),
                       app.submission().name};
  const std::string target =
      placeQueue(config_, req, [this](const std::string& q) { return tree_->find(q) != nullptr; });
  CsQueue* q = tree_->find(target);
  if (q == nullptr) {
    return invalidArgument("Application {} submitted by user {} to unknown queue: {}",
                           appIdString(app.id()), app.user(), target);
  }
  if (q->config().reservable) return reservationQueueFor(app, *q);
  if (!q->isLeaf()) {
    return invalidArgument("Application {} submitted by user {} to non-leaf queue: {}",
                           appIdString(app.id()), app.user(), target);
  }
  return q;
}

namespace {

bool aclAllows(const AccessControlList& acl, const std::string& user,
               const std::vector<std::string>& groups) {
  if (acl.everyone || acl.users.count(user)) return true;
  for (const std::string& g : groups) {
    if (acl.groups.count(g)) return true;
  }
  return false;
}

}  // namespace

Status CapacityScheduler::checkSubmitAccess(const CsQueue& leaf, const std::string& user) const {
  if (!aclEnabled_) return Status::ok();
  const auto groups = groups_.groupsOf(user);
  for (const CsQueue* q = &leaf; q != nullptr; q = q->parent()) {
    if (aclAllows(q->config().submitAcl, user, groups) ||
        aclAllows(q->config().administerAcl, user, groups)) {
      return Status::ok();
    }
  }
  return failedPrecondition("User {} does not have permission to submit to queue {}", user,
                            leaf.path());
}

// CapacityScheduler.checkAndGetApplicationPriority: without an asked priority, the user's
// default from the queue's priority ACL, else the queue's default-application-priority; capped
// at the cluster maximum; then, with ACLs on, the priority ACL must allow it (priority_acl.h).
Result<int32_t> CapacityScheduler::admittedPriority(const CsQueue& leaf, const Application& app,
                                                    const std::string& appId) const {
  const std::vector<PriorityAcl>& acls = leaf.config().priorityAcls;
  const bool checked = aclEnabled_ && !acls.empty();
  const std::vector<std::string> groups =
      checked ? groups_.groupsOf(app.user()) : std::vector<std::string>{};
  int32_t priority = app.priority();
  if (priority == 0) {
    std::optional<int32_t> userDefault =
        checked ? priorityAclDefault(acls, app.user(), groups) : std::nullopt;
    priority = userDefault.value_or(leaf.config().defaultApplicationPriority);
  }
  priority = std::min(priority, clusterMaxPriority_);
  if (checked && !priorityAclAllows(acls, app.user(), groups, priority)) {
    return failedPrecondition(
        "User {} does not have permission to submit/update {} for "
        "{{Priority: {}}}",
        app.user(), appId, priority);
  }
  return priority;
}

std::optional<Scheduler::QueueMaximumAllocation> CapacityScheduler::leafMaximumAllocation(
    const CsQueue& leaf) const {
  if (leaf.maximumAllocation == settings().bounds.maximum) return std::nullopt;
  return QueueMaximumAllocation{leaf.maximumAllocation, leaf.path()};
}

std::optional<Scheduler::QueueMaximumAllocation> CapacityScheduler::queueMaximumAllocation(
    const Application& app) const {
  const CsApp* s = csAppOrNull(app.id());
  if (s == nullptr || s->leaf == nullptr) return std::nullopt;
  return leafMaximumAllocation(*s->leaf);
}

std::string CapacityScheduler::amDiagnostics(const Application& app) const {
  const CsApp* s = csAppOrNull(app.id());
  if (s == nullptr || app.amRunning() || !app.managedAm() || app.state() != AppState::ACCEPTED) {
    return "";
  }
  const Decision* skip = lastSkip(app.id());
  std::string last;
  if (skip != nullptr) {
    last = fmt::format(" {} ({}).", skip->reason, toString(skip->skip));
    if (skip->node.valid()) {
      last += fmt::format(" Last Node which was processed for the application : {}",
                          cluster().nodeName(skip->node));
    }
  }
  // LeafQueue.activateApplications / FiCaSchedulerApp.updateAMContainerDiagnostics.
  if (s->phase != CsAppPhase::kActive) {
    return fmt::format("[Application is added to the scheduler and is not yet activated.{}]", last);
  }
  const std::string& p = s->amPartition;
  const CsQueue& leaf = *s->leaf;
  const Resource partition = partitionResource(p);
  const ResolvedCapacity& c = leaf.cap(p);
  const ResourceCalculator& rc = calculator();
  const double used =
      rc.isInvalidDivisor(partition) ? 0 : rc.divide(partition, leaf.usage(p).used, partition);
  return fmt::format(
      "[Application is Activated, waiting for resources to be assigned for AM. Details : AM "
      "Partition = {} ; Partition Resource = {} ; Queue's Absolute capacity = {:.1f} % ; Queue's "
      "Absolute used capacity = {:.1f} % ; Queue's Absolute max capacity = {:.1f} % ;{}]",
      p.empty() ? "<DEFAULT_PARTITION>" : p, partition.toString(), c.absCapacity * 100, used * 100,
      c.absMaxCapacity * 100, last);
}

Status CapacityScheduler::admitApp(Application& app) {
  sync();
  SPINDLE_ASSIGN_OR_RETURN(CsQueue * leaf, placeApp(app));
  const std::string id = appIdString(app.id());
  for (const CsQueue* q = leaf; q != nullptr; q = q->parent()) {
    if (q->state != QueueRunState::kRunning) {
      return failedPrecondition("Queue {} is {}. Cannot accept submission of application: {}",
                                leaf->path(), toString(q->state), id);
    }
  }
  if (Status acl = checkSubmitAccess(*leaf, app.user()); !acl.isOk()) {
    return failedPrecondition("User {} does not have permission to submit {} to queue {}",
                              app.user(), id, leaf->path());
  }
  if (leaf->numApplications >= leaf->maxApplications) {
    return failedPrecondition(
        "Queue {} already has {} applications, cannot accept submission of application: {}",
        leaf->path(), leaf->numApplications, id);
  }
  auto uit = leaf->users.find(app.user());
  const int userApps = uit == leaf->users.end() ? 0 : uit->second.totalApps();
  if (userApps >= leaf->maxApplicationsPerUser) {
    return failedPrecondition(
        "Queue {} already has {} applications from user {} cannot accept submission of "
        "application: {}",
        leaf->path(), userApps, app.user(), id);
  }
  const std::string& amLabel = app.submission().amNodeLabelExpression;
  if (!amLabel.empty() &&
      (!cluster().hasNodeLabel(amLabel) || !leaf->config().canAccess(amLabel))) {
    return invalidArgument(
        "Invalid resource request, queue={} doesn't have permission to access all labels in "
        "resource request. labelExpression of resource request={}. Queue labels={}",
        leaf->name(), amLabel, fmt::join(leaf->config().accessibleLabels, ","));
  }
  // RMAppManager validates the AM request against the placed queue's maximum allocation
  // (SchedulerUtils.normalizeAndValidateRequest) and rejects the submission.
  if (auto max = leafMaximumAllocation(*leaf);
      max && !ResourceLimit::of(max->maximum, settings().types.count())
                  .allows(app.submission().amResource)) {
    return invalidArgument(
        "Invalid resource request! Cannot allocate containers as requested resource is greater "
        "than maximum allowed allocation. Requested resource={}, maximum allowed allocation={} "
        "(the AM container of {} in queue {}, maximum-allocation)",
        app.submission().amResource.toString(), max->maximum.toString(), id, leaf->path());
  }
  SPINDLE_ASSIGN_OR_RETURN(int32_t priority, admittedPriority(*leaf, app, id));
  app.setQueue(leaf->path());
  CsApp& s = csApps_[app.id()];
  if (csById_.size() <= app.id().value()) csById_.resize(app.id().value() + 1, nullptr);
  csById_[app.id().value()] = &s;
  s.app = &app;
  s.leaf = leaf;
  s.priority = priority;
  app.setPriority(s.priority);
  s.amPartition = app.submission().amNodeLabelExpression.empty()
                      ? leaf->config().defaultNodeLabelExpression
                      : app.submission().amNodeLabelExpression;
  if (!app.submission().amResource.isZero()) {
    s.amResource = normalizeRequest(calculator(), app.submission().amResource, settings().bounds);
  }
  s.user = &leaf->user(app.user());
  for (CsQueue* q = leaf; q != nullptr; q = q->parent()) ++q->numApplications;
  if (canBeRunnable(*leaf, app.user())) {
    makeRunnable(s);
  } else {
    s.phase = CsAppPhase::kNonRunnable;
    leaf->nonRunnableApps.insert(app.id());
    ++leaf->user(app.user()).nonRunnableApps;
    nonRunnable_.insert(app.id());
  }
  return Status::ok();
}

bool CapacityScheduler::canBeRunnable(const CsQueue& leaf, const std::string& user) const {
  for (const CsQueue* q = &leaf; q != nullptr; q = q->parent()) {
    if (q->numRunnable >= q->config().maxParallelApps) return false;
  }
  auto limit = config_.perUserMaxParallelApps.find(user);
  const int32_t userMax =
      limit == config_.perUserMaxParallelApps.end() ? config_.userMaxParallelApps : limit->second;
  auto it = userRunnable_.find(user);
  return (it == userRunnable_.end() ? 0 : it->second) < userMax;
}

void CapacityScheduler::makeRunnable(CsApp& s) {
  CsQueue& leaf = *s.leaf;
  s.phase = CsAppPhase::kPending;
  for (CsQueue* q = &leaf; q != nullptr; q = q->parent()) ++q->numRunnable;
  ++userRunnable_[s.app->user()];
  ++leaf.user(s.app->user()).pendingApps;
  s.orderKey = AppOrderKey{-static_cast<double>(s.priority), 0, s.app->id()};
  leaf.pendingApps.insert(s.orderKey);
  // In a bulk admission (recovery) onBulkAdmissionEnded activates once for all.
  if (!inBulkAdmission()) activateApplications(leaf);
}

void CapacityScheduler::onBulkAdmissionEnded() {
  sync();
  for (CsQueue* leaf : tree_->leaves()) activateApplications(*leaf);
}

void CapacityScheduler::activateApplications(CsQueue& leaf) {
  const ResourceCalculator& rc = calculator();
  const Resource& minAlloc = settings().bounds.minimum;
  const Resource cluster = partitionResource(kDefaultPartition);
  const double mulp = leaf.config().minimumUserLimitPercent;
  const double ulf = leaf.config().userLimitFactor;
  leaf.amLimits.clear();
  auto amLimitFor = [&](const std::string& p) {
    auto it = leaf.amLimits.find(p);
    if (it != leaf.amLimits.end()) return it->second;
    const ResolvedCapacity& c = leaf.cap(p);
    Resource limit =
        queueAmLimit(rc, c.effectiveMin, leaf.currentLimit, p.empty(), c.maxAmPercent, minAlloc);
    leaf.amLimits[p] = limit;
    return limit;
  };
  amLimitFor(kDefaultPartition);
  const TimeMs now = clock().nowMs();  // one clock read per pass, not one per pending app
  for (auto it = leaf.pendingApps.begin(); it != leaf.pendingApps.end();) {
    CsApp& s = *csAppOrNull(it->app);
    const std::string& p = s.amPartition;
    const Resource limit = amLimitFor(p);
    QueueUsage& usage = leaf.usage(p);
    const bool escape =
        leaf.activeApps.empty() || rc.lessThanOrEqual(cluster, usage.amUsed, Resource());
    if (!rc.fitsIn(s.amResource + usage.amUsed, limit) && !escape) {
      skipAtAmLimit(s, false, leaf.path(), limit, usage.amUsed, now);
      ++it;
      continue;
    }
    CsUser& user = leaf.user(s.app->user());
    const ResolvedCapacity& c = leaf.cap(p);
    const Resource userLimit = userAmLimit(rc, cluster, c.effectiveMin, c.maxAmPercent, mulp, ulf,
                                           leaf.activeUsers, user.weight, limit, minAlloc);
    if (!rc.fitsIn(s.amResource + user.amUsedIn(p), userLimit) && !escape) {
      skipAtAmLimit(s, true, leaf.path(), userLimit, user.amUsedIn(p), now);
      ++it;
      continue;
    }
    it = leaf.pendingApps.erase(it);
    --user.pendingApps;
    ++user.activeApps;
    s.phase = CsAppPhase::kActive;
    leaf.activeApps.insert(s.app->id());
    user.amUsed[p] += s.amResource;
    for (CsQueue* q = &leaf; q != nullptr; q = q->parent()) q->usage(p).amUsed += s.amResource;
    s.orderKey = orderKeyFor(s);
    setSchedulable(s, s.app->asks().hasPending());
  }
}

std::string CapacityScheduler::amLimitSkipText(const CsApp& s, const CsApp::AmLimitSkip& k) {
  if (k.userLevel) {
    return fmt::format("user {} AM limit {} in queue {}: {} used by AMs, this AM needs {}",
                       s.user->name, k.limit.toString(), k.leafPath, k.used.toString(),
                       k.am.toString());
  }
  return fmt::format("queue {} AM limit {}: {} used by AMs, this AM needs {}", k.leafPath,
                     k.limit.toString(), k.used.toString(), k.am.toString());
}

void CapacityScheduler::skipAtAmLimit(CsApp& s, bool userLevel, const std::string& leafPath,
                                      const Resource& limit, const Resource& used, TimeMs now) {
  // Compared in place: every pending app is walked at each submission (YARN's
  // LeafQueue.activateApplications), so a repeat must not build a record to compare.
  const CsApp::AmLimitSkip& last = s.amLimitSkip;
  if (last.userLevel == userLevel && last.limit == limit && last.used == used &&
      last.am == s.amResource && last.leafPath == leafPath &&
      repeatSkip(s.app->id(), last.serial, now)) {
    return;
  }
  CsApp::AmLimitSkip k{0, userLevel, leafPath, limit, used, s.amResource};
  const char* limitKey = k.userLevel ? "userAmLimitMb" : "queueAmLimitMb";
  const char* usedKey = k.userLevel ? "userAmUsedMb" : "queueAmUsedMb";
  k.serial = recordSkip(*s.app, NodeId(), kAmKey, SkipReason::kAmLimit, amLimitSkipText(s, k),
                        {{"amResourceMb", double(k.am.memoryMb())},
                         {limitKey, double(k.limit.memoryMb())},
                         {usedKey, double(k.used.memoryMb())}});
  s.amLimitSkip = std::move(k);
}

void CapacityScheduler::promoteNonRunnable() {
  for (auto it = nonRunnable_.begin(); it != nonRunnable_.end();) {
    CsApp& s = csApps_.at(*it);
    if (!canBeRunnable(*s.leaf, s.app->user())) {
      ++it;
      continue;
    }
    it = nonRunnable_.erase(it);
    s.leaf->nonRunnableApps.erase(s.app->id());
    --s.leaf->user(s.app->user()).nonRunnableApps;
    makeRunnable(s);
  }
}

void CapacityScheduler::updateDraining(CsQueue* q) {
  for (; q != nullptr; q = q->parent()) {
    if (q->state == QueueRunState::kDraining && q->numApplications == 0) {
      q->state = QueueRunState::kStopped;
    }
  }
}

void CapacityScheduler::removeFromLeaf(CsApp& s) {
  CsQueue& leaf = *s.leaf;
  CsUser& user = leaf.user(s.app->user());
  const AppId id = s.app->id();
  setSchedulable(s, false);
  setUserActive(s, false);
  switch (s.phase) {
    case CsAppPhase::kNonRunnable:
      leaf.nonRunnableApps.erase(id);
      nonRunnable_.erase(id);
      --user.nonRunnableApps;
      break;
    case CsAppPhase::kPending:
      leaf.pendingApps.erase(AppOrderKey{-static_cast<double>(s.priority), 0, id});
      --user.pendingApps;
      break;
    case CsAppPhase::kActive:
      leaf.activeApps.erase(id);
      --user.activeApps;
      user.amUsed[s.amPartition] -= s.amResource;
      for (CsQueue* q = &leaf; q != nullptr; q = q->parent()) {
        q->usage(s.amPartition).amUsed -= s.amResource;
      }
      break;
  }
  if (s.phase != CsAppPhase::kNonRunnable) {
    for (CsQueue* q = &leaf; q != nullptr; q = q->parent()) --q->numRunnable;
    --userRunnable_[s.app->user()];
  }
  for (CsQueue* q = &leaf; q != nullptr; q = q->parent()) --q->numApplications;
}

void CapacityScheduler::onAppRemoved(Application& app) {
  auto it = csApps_.find(app.id());
  if (it == csApps_.end()) return;
  CsApp& s = it->second;
  // The base already cleared the cluster's reservations and the app's reserved total; drop
  // ours from the queue and user aggregates.
  while (!s.reservations.empty()) dropReservationRecord(s, s.reservations.begin()->first);
  refreshPending(s);  // asks were cleared: pending goes to zero everywhere
  CsQueue* leaf = s.leaf;
  removeFromLeaf(s);
  csById_[app.id().value()] = nullptr;
  csApps_.erase(it);
  if (!inBulkAdmission()) activateApplications(*leaf);
  promoteNonRunnable();
  updateDraining(leaf);
}

// --- Usage bookkeeping --------------------------------------------------------------------------

void CapacityScheduler::addUsage(CsApp& s, const std::string& partition, const Resource& r,
                                 bool reservation, int sign) {
  auto apply = [sign, &r](Resource& x) {
    if (sign > 0)
      x += r;
    else
      x -= r;
  };
  apply(s.user->used[partition]);
  apply(s.used[partition]);
  userUsageChanged(*s.leaf, *s.user, partition, sign > 0 ? r : Resource() - r);
  for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) {
    QueueUsage& u = q->usage(partition);
    apply(u.used);
    if (reservation) apply(u.reserved);
    if (partition.empty()) updateChildKey(*q);
  }
}

void CapacityScheduler::userUsageChanged(CsQueue& leaf, CsUser& user, const std::string& p,
                                         const Resource& delta) {
  if (user.appsWithPending > 0) leaf.activeUsed[p] += delta;
  // The default partition's resource is cached (kept with partitions_ by syncNow).
  auto rit = p.empty() ? partitions_.end() : partitions_.find(p);
  const Resource& R = p.empty()                  ? defaultPartitionResource_
                      : rit == partitions_.end() ? kNoResource
                                                 : rit->second;
  float& ratio = user.usageRatio[p];
  const float next = calculator().isInvalidDivisor(R)
                         ? 0.0f
                         : static_cast<float>(calculator().ratio(user.usedIn(p), R));
  leaf.usageRatioSum[p] += next - ratio;
  ratio = next;
}

// On a cluster change every ratio is recomputed (UsersManager.updateUsageRatio per user).
void CapacityScheduler::recomputeUserRatios() {
  for (CsQueue* leaf : tree_->leaves()) {
    leaf->usageRatioSum.clear();
    for (auto& [name, user] : leaf->users) {
      user.usageRatio.clear();
      for (const auto& [p, used] : user.used) userUsageChanged(*leaf, user, p, Resource());
    }
  }
}

void CapacityScheduler::updateChildKey(CsQueue& q) {
  if (q.parent() == nullptr) return;
  const ResourceCalculator& rc = calculator();
  const Resource& R = defaultPartitionResource_;
  const ResolvedCapacity& cap = q.cap(kDefaultPartition);
  const QueueUsage& u = q.usage(kDefaultPartition);
  CsQueue::ChildKey& k = q.parent()->childKeys[q.indexInParent];
  k.absCapacity = static_cast<float>(cap.absCapacity);
  k.usedCapacity =
      q.noMinDivisor ? 0.0f : static_cast<float>(rc.divide(R, u.used, cap.effectiveMin));
  k.absUsedCapacity = noPartitionDivisor_ ? 0.0f : static_cast<float>(rc.divide(R, u.used, R));
  k.pending = !u.pending.isZero();
}

std::string CapacityScheduler::keyPartition(const CsApp& s, const ResourceRequest& any) const {
  if (!any.nodeLabelExpression.empty()) return any.nodeLabelExpression;
  if (any.key == kAmKey && !s.app->amRunning() && !s.amResource.isZero()) return s.amPartition;
  return unlabelledPartition(s);
}

// An unlabelled ask goes to the queue's default-node-label-expression, except for an app of a
// fifo-with-partitions leaf whose AM runs in one of the leaf's exclusive-enforced partitions:
// its asks stay in that partition (YARN forces the app's label on such requests).
const std::string& CapacityScheduler::unlabelledPartition(const CsApp& s) const {
  const CsQueue& leaf = *s.leaf;
  if (leaf.fifoWithPartitions && leaf.config().exclusiveEnforcedPartitions.count(s.amPartition)) {
    return s.amPartition;
  }
  return leaf.hasDefaultNodeLabel ? leaf.config().defaultNodeLabelExpression : kDefaultPartition;
}

void CapacityScheduler::refreshPending(CsApp& s) {
  PartitionMap<Resource> now;
  const AskTable& asks = s.app->asks();
  if (asks.hasPending()) {
    asks.forEachActiveKey([&](const SchedulerKey&, const ResourceRequest& any) {
      now[keyPartition(s, any)] += any.capability.times(any.numContainers);
      return true;
    });
  }
  if (now != s.pending) {
    bool defaultTouched = false;
    for (auto& [p, r] : s.pending) {
      for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) q->usage(p).pending -= r;
      defaultTouched = defaultTouched || p.empty();
    }
    for (auto& [p, r] : now) {
      for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) q->usage(p).pending += r;
      defaultTouched = defaultTouched || p.empty();
    }
    s.pending = std::move(now);
    if (defaultTouched) {
      for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) updateChildKey(*q);
    }
  }
  const bool has = asks.hasPending();
  setUserActive(s, has);
  setSchedulable(s, has && s.phase == CsAppPhase::kActive);
}

void CapacityScheduler::setUserActive(CsApp& s, bool on) {
  if (s.hasPendingAsks == on) return;
  s.hasPendingAsks = on;
  CsQueue& leaf = *s.leaf;
  CsUser& user = *s.user;
  const bool wasActive = user.appsWithPending > 0;
  user.appsWithPending += on ? 1 : -1;
  const bool isActive = user.appsWithPending > 0;
  if (wasActive != isActive) {
    leaf.activeUsers += isActive ? 1 : -1;
    leaf.activeUsersWeight += isActive ? user.weight : -user.weight;
    for (const auto& [p, used] : user.used) {
      if (isActive)
        leaf.activeUsed[p] += used;
      else
        leaf.activeUsed[p] -= used;
    }
  }
}

AppOrderKey CapacityScheduler::orderKeyFor(const CsApp& s) const {
  const QueueConfig& qc = s.leaf->config();
  if (s.leaf->fairPolicy) {
    // FairOrderingPolicy: cached used memory; size-based weight divides by log2(1 + demand).
    double magnitude = static_cast<double>(s.app->used().memoryMb());
    if (qc.fairSizeBasedWeight) {
      const double demand =
          static_cast<double>(s.app->used().memoryMb() + s.app->asks().pending().memoryMb());
      const double weight = std::log1p(demand) / std::log(2.0);
      magnitude = weight > 0 ? magnitude / weight : magnitude;
    }
    return AppOrderKey{magnitude, 0, s.app->id()};
  }
  return AppOrderKey{-static_cast<double>(s.priority), 0, s.app->id()};
}

void CapacityScheduler::setSchedulable(CsApp& s, bool on) {
  if (s.schedulable == on && (!on || !s.leaf->fairPolicy)) return;
  if (s.schedulable) s.leaf->schedulable.erase(s.orderKey);
  s.schedulable = on;
  if (on) {
    s.orderKey = orderKeyFor(s);
    s.leaf->schedulable.insert(s.orderKey);
  }
  updateHead(*s.leaf);
}

void CapacityScheduler::updateHead(CsQueue& leaf) {
  leaf.head = leaf.schedulable.empty() ? nullptr : csAppOrNull(leaf.schedulable.begin()->app);
}

void CapacityScheduler::reorder(CsApp& s) {
  if (s.schedulable && s.leaf->fairPolicy) setSchedulable(s, true);
}

// SchedulerUtils.validateResourceRequest: a label expression must name a cluster label the
// app's queue can access (InvalidLabelResourceRequestException).
Status CapacityScheduler::validateAsks(const Application& app,
                                       const std::vector<ResourceRequest>& asks) const {
  const CsApp* s = csApp(app.id());
  if (s == nullptr) return Status::ok();
  for (const ResourceRequest& rr : asks) {
    const std::string& label = rr.nodeLabelExpression;
    if (label.empty()) continue;
    if (!cluster().hasNodeLabel(label)) {
      return invalidArgument(
          "Invalid resource request, node label '{}' does not exist in the "
          "cluster (ask '{}' at priority {})",
          label, rr.resourceName, rr.key.priority);
    }
    if (!s->leaf->config().canAccess(label)) {
      return invalidArgument(
          "Invalid resource request, queue={} doesn't have permission to access all labels in "
          "resource request. labelExpression of resource request={}. Queue labels={}",
          s->leaf->name(), label, fmt::join(s->leaf->config().accessibleLabels, ","));
    }
  }
  return Status::ok();
}

void CapacityScheduler::onAsksChanged(Application& app) {
  auto it = csApps_.find(app.id());
  if (it == csApps_.end()) return;
  refreshPending(it->second);
  if (it->second.phase == CsAppPhase::kNonRunnable) recordNotRunnable(it->second);
}

// "Why is my app pending" for an app over max-parallel-apps (CSMaxRunningAppsEnforcer keeps it
// out of the queue's pending list until a running app ends): names the first limit reached.
void CapacityScheduler::recordNotRunnable(const CsApp& s) {
  for (const CsQueue* q = s.leaf; q != nullptr; q = q->parent()) {
    if (q->numRunnable >= q->config().maxParallelApps) {
      recordSkip(
          *s.app, NodeId(), kAmKey, SkipReason::kMaxParallelApps,
          fmt::format("queue {} runs {} apps, its max-parallel-apps is {}", q->path(),
                      q->numRunnable, q->config().maxParallelApps),
          {{"runningApps", q->numRunnable}, {"maxParallelApps", q->config().maxParallelApps}});
      return;
    }
  }
  const std::string& user = s.app->user();
  auto limit = config_.perUserMaxParallelApps.find(user);
  const int32_t userMax =
      limit == config_.perUserMaxParallelApps.end() ? config_.userMaxParallelApps : limit->second;
  auto it = userRunnable_.find(user);
  const int running = it == userRunnable_.end() ? 0 : it->second;
  recordSkip(*s.app, NodeId(), kAmKey, SkipReason::kMaxParallelApps,
             fmt::format("user {} runs {} apps, the user's max-parallel-apps is {}", user, running,
                         userMax),
             {{"runningApps", running}, {"maxParallelApps", userMax}});
}

void CapacityScheduler::onContainerAllocated(Application& app, const Container& c) {
  CsApp& s = *csAppOrNull(app.id());
  const std::string& nodePartition = cluster().node(c.node).partition();
  // Fast path: an allocation took exactly one container of its ask, so its partition's pending
  // drops by the capability; anything else (a placed container) recomputes from the asks.
  // Pending is lowered before addUsage so that each queue's ordering key is recomputed once,
  // from the final used and pending (the two updates touch different fields).
  const std::string& p = !c.askedLabel.empty() ? c.askedLabel
                         : c.isAm              ? s.amPartition
                                               : unlabelledPartition(s);
  Resource before;
  for (const auto& [part, r] : s.pending) before += r;
  auto pit = s.pending.find(p);
  const bool fast = pit != s.pending.end() && app.asks().pending() == before - c.askedCapability &&
                    c.askedCapability.fitsIn(pit->second);
  if (fast) {
    pit->second -= c.askedCapability;
    for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) {
      q->usage(p).pending -= c.askedCapability;
    }
  }
  addUsage(s, nodePartition, c.resource, false, +1);  // updates keys on the default partition
  if (fast) {
    if (p.empty() && !nodePartition.empty()) {
      for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) updateChildKey(*q);
    }
    const bool has = app.asks().hasPending();
    setUserActive(s, has);
    setSchedulable(s, has && s.phase == CsAppPhase::kActive);
  } else {
    refreshPending(s);
  }
  reorder(s);
  if (config_.scheduleAsynchronously) indexNode(c.node);
}

void CapacityScheduler::onContainerFinished(Application& app, const Container& c) {
  preemption_.executor.forget(c.id);
  CsApp* s = csAppOrNull(app.id());
  if (s == nullptr) return;
  s->prefetch();
  addUsage(*s, cluster().node(c.node).partition(), c.resource, false, -1);
  reorder(*s);
  if (config_.scheduleAsynchronously && cluster().contains(c.node)) indexNode(c.node);
}

// --- Reservations -------------------------------------------------------------------------------

void CapacityScheduler::reserve(CsApp& s, NodeId node, const SchedulerKey& key, const Resource& r,
                                const std::string& why) {
  const std::string& partition = cluster().node(node).partition();
  auto existing = s.reservations.find(node);
  Decision d;
  d.kind = DecisionKind::kReserve;
  d.app = s.app->id();
  d.node = node;
  d.queue = s.leaf->path();
  d.key = key;
  d.resource = r;
  if (existing != s.reservations.end()) {
    ++s.reReservations[key];
    d.reason = fmt::format("re-reserved {} on {} (re-reservations {})", r.toString(),
                           cluster().nodeName(node), s.reReservations[key]);
    d.numbers = {{"reReservations", double(s.reReservations[key])}};
  } else {
    const ContainerId id = s.app->nextContainerId();
    s.reservations[node] = CsReservation{key, r, partition, id, clock().nowMs()};
    reservedNodes_[node] = s.app->id();
    ++s.reservedCount[key];
    s.reReservations[key] = 0;
    addUsage(s, partition, r, true, +1);
    s.app->addReserved(r);
    mutableCluster().reserve(node, id, r);
    d.container = id;
    d.reason = !why.empty() ? why
                            : fmt::format("reserved {} on {}: it does not fit the node's free {}",
                                          r.toString(), cluster().nodeName(node),
                                          cluster().node(node).unallocated().toString());
  }
  record(std::move(d));
}

void CapacityScheduler::dropReservationRecord(CsApp& s, NodeId node) {
  auto it = s.reservations.find(node);
  if (it == s.reservations.end()) return;
  const CsReservation r = it->second;
  s.reservations.erase(it);
  reservedNodes_.erase(node);
  if (--s.reservedCount[r.key] <= 0) s.reservedCount.erase(r.key);
  addUsage(s, r.partition, r.resource, true, -1);
}

void CapacityScheduler::unreserve(CsApp& s, NodeId node, const std::string& why) {
  auto it = s.reservations.find(node);
  if (it == s.reservations.end()) return;
  const CsReservation r = it->second;
  dropReservationRecord(s, node);
  s.app->removeReserved(r.resource);
  mutableCluster().unreserve(node);
  Decision d;
  d.kind = DecisionKind::kUnreserve;
  d.app = s.app->id();
  d.node = node;
  d.queue = s.leaf->path();
  d.key = r.key;
  d.resource = r.resource;
  d.reason = why;
  record(std::move(d));
}

// --- Views ------------------------------------------------------------------------------------

std::optional<std::vector<AppId>> CapacityScheduler::appsInQueue(std::string_view queue) const {
  const CsQueue* q = tree_->find(std::string(queue));
  if (q == nullptr) return std::nullopt;
  std::vector<AppId> ids;
  for (const auto& [id, s] : csApps_) {
    for (const CsQueue* p = s.leaf; p != nullptr; p = p->parent()) {
      if (p == q) {
        ids.push_back(id);
        break;
      }
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Resource CapacityScheduler::userLimit(const CsQueue& leaf, const std::string& user,
                                      const std::string& partition) const {
  const ResourceCalculator& rc = calculator();
  const Resource R = partitionResource(partition);
  UserLimitInputs in;
  in.partitionResource = R;
  in.queueGuaranteed = leaf.cap(partition).effectiveMin;
  in.queueMaxDown = rc.roundDown(leaf.cap(partition).effectiveMax, settings().bounds.minimum);
  in.minAlloc = settings().bounds.minimum;
  in.consumedRatio = leaf.usageRatio(partition);
  in.activeUsersUsed = leaf.activeUsersUsed(partition);
  in.activeUsersWeight = leaf.activeUsersWeight;
  in.minimumUserLimitPercent = leaf.config().minimumUserLimitPercent;
  in.userLimitFactor = leaf.config().userLimitFactor;
  const Resource ul = computeUserLimit(rc, in);
  return userLimitForWeight(rc, ul, leaf.userWeight(user), settings().bounds.minimum);
}

std::optional<Resource> CapacityScheduler::headroom(AppId id) const {
  const CsApp* s = csApp(id);
  if (s == nullptr) return std::nullopt;
  const CsQueue& leaf = *s->leaf;
  // The partition the app's unlabelled asks go to. YARN computes the headroom for the partition
  // of the node last heartbeated while the app was considered; Spindle reports it for the app's
  // own partition, so it does not depend on heartbeat order.
  const std::string& p = unlabelledPartition(*s);
  const Resource userUsed = s->user->usedIn(p);
  const Resource queueLimit = p.empty() ? leaf.currentLimit : partitionLimit(leaf, p);
  return capacityHeadroom(calculator(), userLimit(leaf, s->app->user(), p), userUsed, queueLimit,
                          leaf.usage(p).used, partitionResource(p), tree_->root()->usage(p).used,
                          settings().bounds.minimum);
}

// The leaf's limit on a labelled partition as the allocation path derives it top-down
// (ParentQueue.getResourceLimitsOfChild): the root's limit is the partition's resource; a
// child's is min(parent limit, parent maximum) - parent used + child used, rounded down to the
// minimum allocation; the leaf's current limit is that capped by its own maximum.
Resource CapacityScheduler::partitionLimit(const CsQueue& leaf, const std::string& p) const {
  std::vector<const CsQueue*> path;
  for (const CsQueue* q = &leaf; q != nullptr; q = q->parent()) path.push_back(q);
  const ResourceCalculator& rc = calculator();
  const Resource& total = partitionResource(p);
  const Resource& minAlloc = settings().bounds.minimum;
  Resource limit = total;
  for (size_t i = path.size() - 1; i > 0; --i) {
    const CsQueue& parent = *path[i];
    const CsQueue& child = *path[i - 1];
    Resource parentLimit = rc.min(total, parent.cap(p).effectiveMax, limit);
    Resource available = parentLimit - parent.usage(p).used;
    limit = rc.roundDown(available + child.usage(p).used, minAlloc);
  }
  return rc.roundDown(rc.min(total, leaf.cap(p).effectiveMax, limit), minAlloc);
}

// --- Invariants ---------------------------------------------------------------------------------

// The usage aggregates (cs_queue.h, cs_app.h): each app's used, pending and reservations against
// its containers, asks and the cluster's reservations; each leaf's used, active users, active
// users' used and usage ratios against its users and apps. The caches: capacity_invariants.cc.
Status CapacityScheduler::checkSchedulerInvariants() const {
  SPINDLE_RETURN_IF_ERROR(tree_->check());
  std::map<const CsQueue*, std::map<std::string, Resource>> perLeaf;
  for (const auto& [id, s] : csApps_) {
    std::map<std::string, Resource> used;
    for (ContainerId c : s.app->liveContainers()) {
      const Container* ct = findContainer(c);
      used[cluster().node(ct->node).partition()] += ct->resource;
    }
    int reservations = 0;
    for (const auto& [node, r] : s.reservations) {
      used[r.partition] += r.resource;
      if (!cluster().contains(node)) {
        return internalError("{}: reservation on removed node {}", appIdString(id),
                             cluster().nodeName(node));
      }
      auto rn = reservedNodes_.find(node);
      if (rn == reservedNodes_.end() || rn->second != id) {
        return internalError("{}: reservation on {} missing from the index", appIdString(id),
                             cluster().nodeName(node));
      }
      const auto& nr = cluster().node(node).reservation();
      if (!nr || nr->container.app() != id) {
        return internalError("{}: reservation on {} is not the node's", appIdString(id),
                             cluster().nodeName(node));
      }
      ++reservations;
    }
    int counted = 0;
    for (const auto& [k, n] : s.reservedCount) counted += n;
    if (counted != reservations) {
      return internalError("{}: reserved counts {} != reservations {}", appIdString(id), counted,
                           reservations);
    }
    for (const auto& [p, r] : used) {
      auto it = s.used.find(p);
      if ((it == s.used.end() ? Resource() : it->second) != r) {
        return internalError("{}: used on '{}' {} != containers and reservations {}",
                             appIdString(id), p, it == s.used.end() ? "0" : it->second.toString(),
                             r.toString());
      }
      perLeaf[s.leaf][p] += r;
    }
    PartitionMap<Resource> pending;
    // A named reference, not the structured binding: Clang 14 does not capture bindings.
    const CsApp& app = s;
    s.app->asks().forEachActiveKey([&](const SchedulerKey&, const ResourceRequest& any) {
      pending[keyPartition(app, any)] += any.capability.times(any.numContainers);
      return true;
    });
    for (const auto& [p, r] : s.pending) {
      auto it = pending.find(p);
      if ((it == pending.end() ? Resource() : it->second) != r) {
        return internalError("{}: cached pending on '{}' {} != its asks' {}", appIdString(id), p,
                             r.toString(), it == pending.end() ? "<none>" : it->second.toString());
      }
    }
    for (const auto& [p, r] : pending) {
      if (!r.isZero() && !s.pendingIn(p)) {
        return internalError("{}: cached pending on '{}' missing, its asks give {}",
                             appIdString(id), p, r.toString());
      }
    }
    const bool schedulable = s.phase == CsAppPhase::kActive && s.app->asks().hasPending();
    if (schedulable != s.schedulable ||
        s.leaf->schedulable.count(s.orderKey) != (s.schedulable ? 1u : 0u)) {
      return internalError(
          "{}: schedulable flag {} (in the leaf's set: {}), but active {} with pending asks {}",
          appIdString(id), s.schedulable, s.leaf->schedulable.count(s.orderKey) == 1,
          s.phase == CsAppPhase::kActive, s.app->asks().hasPending());
    }
    if (s.hasPendingAsks != s.app->asks().hasPending()) {
      return internalError("{}: active-user flag (pending asks) {} != its asks' {}",
                           appIdString(id), s.hasPendingAsks, s.app->asks().hasPending());
    }
  }
  SPINDLE_RETURN_IF_ERROR(checkClusterCaches());
  SPINDLE_RETURN_IF_ERROR(checkChildKeys());
  SPINDLE_RETURN_IF_ERROR(checkAppOrders());
  SPINDLE_RETURN_IF_ERROR(checkAppIndexes());
  SPINDLE_RETURN_IF_ERROR(checkNodeIndex());
  for (const CsQueue* leaf : tree_->leaves()) {
    for (const auto& [p, R] : partitions_) {
      Resource activeUsed;
      float ratio = 0;
      for (const auto& [name, u] : leaf->users) {
        if (u.appsWithPending > 0) activeUsed += u.usedIn(p);
        ratio += calculator().isInvalidDivisor(R)
                     ? 0.0f
                     : static_cast<float>(calculator().ratio(u.usedIn(p), R));
      }
      if (activeUsed != leaf->activeUsersUsed(p)) {
        return internalError("leaf {} partition '{}': active users' used {} != {}", leaf->path(), p,
                             leaf->activeUsersUsed(p).toString(), activeUsed.toString());
      }
      if (std::abs(ratio - leaf->usageRatio(p)) > 1e-3f) {
        return internalError("leaf {} partition '{}': usage ratio {} != {}", leaf->path(), p,
                             leaf->usageRatio(p), ratio);
      }
    }
    int active = 0;
    for (const auto& [name, u] : leaf->users) active += u.appsWithPending > 0 ? 1 : 0;
    if (active != leaf->activeUsers) {
      return internalError("leaf {}: active users {} != {}", leaf->path(), leaf->activeUsers,
                           active);
    }
    for (const auto& [p, u] : leaf->usages) {
      auto it = perLeaf[leaf].find(p);
      const Resource apps = it == perLeaf[leaf].end() ? Resource() : it->second;
      if (apps != u.used) {
        return internalError("leaf {} partition '{}': used {} != its apps' {}", leaf->path(), p,
                             u.used.toString(), apps.toString());
      }
    }
  }
  return Status::ok();
}

}  // namespace spindle
