#include "scheduler/scheduler.h"

#include <algorithm>
#include <charconv>

#include <fmt/compile.h>

#include "base/hot_path.h"
#include "base/log.h"
#include "resource/resource_config.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {

Scheduler::Scheduler(SchedulerSettings settings, const Clock& clock, Rng& rng)
    : settings_(std::move(settings)), clock_(clock), rng_(rng), cluster_(settings_.types) {}

Scheduler::~Scheduler() = default;

Status Scheduler::handle(const SchedulerEvent& event) {
  EventScope scope(*this);
  return std::visit(
      [this](const auto& e) -> Status {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, AddNodeLabels>) {
          SPINDLE_RETURN_IF_ERROR(cluster_.addNodeLabels(e.labels));
          return onNodeLabelsAdded();
        }
        if constexpr (std::is_same_v<E, NodeAdded>) return onNodeAdded(e);
        if constexpr (std::is_same_v<E, NodeRemoved>) return onNodeRemoved(e);
        if constexpr (std::is_same_v<E, NodeResourceUpdate>) return onNodeResourceUpdate(e);
        if constexpr (std::is_same_v<E, NodeHeartbeat>) return onHeartbeat(e);
        if constexpr (std::is_same_v<E, AppAdded>) return submit(e.submission).status();
        if constexpr (std::is_same_v<E, AppRemoved>) return onAppRemoved(e);
        if constexpr (std::is_same_v<E, AppAllocate>) return onAppAllocate(e);
        if constexpr (std::is_same_v<E, PlaceContainer>) return onPlaceContainer(e);
        if constexpr (std::is_same_v<E, ContainerFinished>) return onContainerFinishedEvent(e);
        if constexpr (std::is_same_v<E, MonitorTick>) {
          runMonitors();
          return Status::ok();
        }
        if constexpr (std::is_same_v<E, RegisterApplicationMaster>) {
          return onRegisterApplicationMaster(e);
        }
        if constexpr (std::is_same_v<E, NodeAttributesUpdate>) return onNodeAttributesUpdate(e);
      },
      event);
}

Status Scheduler::refreshConfiguration(const Configuration&) {
  return failedPrecondition("the {} has no reloadable configuration", typeName());
}

// AbstractYarnScheduler.moveApplication's text.
Status Scheduler::moveApp(AppId, std::string_view) {
  return failedPrecondition("the {} does not support moving apps between queues", typeName());
}

Status Scheduler::updateAppPriority(AppId id, int32_t) {
  const Application* a = findApp(id);
  if (a == nullptr) return notFound("unknown app {}", appIdString(id));
  if (isFinal(a->state())) {
    return failedPrecondition("Application in {} state cannot update priority.",
                              toString(a->state()));
  }
  return Status::ok();
}

Status Scheduler::removeNodeLabels(const std::vector<std::string>& labels) {
  EventScope scope(*this);
  for (const std::string& l : labels) {
    // CommonNodeLabelsManager.checkRemoveFromClusterNodeLabels' and RMNodeLabelsManager's texts.
    if (!cluster_.hasNodeLabel(l)) {
      return invalidArgument(
          "Node label={} to be removed doesn't existed in cluster node labels collection.", l);
    }
    if (const std::string q = labelInUse(l); !q.empty()) {
      return invalidArgument(
          "Cannot remove label={}, because queue={} is using this label. Please remove label on "
          "queue before remove the label",
          l, q);
    }
    for (NodeId id : cluster_.nodeIds()) {
      if (cluster_.node(id).labels().contains(l)) {
        return invalidArgument(
            "Cannot remove label={}, because node {} carries it; replace the "
            "node's labels first",
            l, cluster_.nodeName(id));
      }
    }
  }
  SPINDLE_RETURN_IF_ERROR(cluster_.removeNodeLabels(labels));
  return onNodeLabelsAdded();
}

Status Scheduler::replaceNodeLabels(std::string_view node, const std::vector<std::string>& labels) {
  EventScope scope(*this);
  SPINDLE_ASSIGN_OR_RETURN(NodeId id, nodeByName(node));
  if (labels.size() > 1) {
    return invalidArgument("node '{}': {} labels given; a node belongs to one partition", node,
                           labels.size());
  }
  for (const std::string& l : labels) {
    if (!cluster_.hasNodeLabel(l)) {
      return invalidArgument("Label {} is not a cluster node label (add it first)", l);
    }
  }
  Node& n = cluster_.node(id);
  const std::set<std::string> next(labels.begin(), labels.end());
  if (next == n.labels()) return Status::ok();
  if (!n.containers().empty() || n.reservation()) {
    return failedPrecondition(
        "node '{}' runs {} container(s){}; its labels change only while it is empty", node,
        n.containers().size(), n.reservation() ? " and holds a reservation" : "");
  }
  n.setLabels(next);
  Decision d;
  d.kind = DecisionKind::kNodeUpdated;
  d.node = id;
  d.resource = n.total();
  d.reason = "node labels replaced";
  record(std::move(d));
  onClusterChanged();
  return Status::ok();
}

Status Scheduler::setPlanQueues(std::string_view plan, const std::vector<QueueEntitlement>&, bool) {
  return failedPrecondition("the {} has no reservable queue {}", typeName(), plan);
}

void Scheduler::recordAppMoved(AppId id, const std::string& queue) {
  if (outcome_ != nullptr) outcome_->apps.push_back({AppAction::kMoved, id, {}, queue});
}

const Application* Scheduler::findApp(AppId id) const {
  auto it = apps_.find(id);
  if (it != apps_.end()) return it->second.get();
  it = finishedApps_.find(id);
  return it == finishedApps_.end() ? nullptr : it->second.get();
}

std::vector<AppId> Scheduler::finishedAppIds() const {
  std::vector<AppId> ids;
  for (const auto& [id, a] : finishedApps_) ids.push_back(id);
  return ids;
}

const Container* Scheduler::findContainer(ContainerId id) const {
  // The app's live-container map is the index: containers exist only for live apps.
  const Application* a = liveAppOrNull(id.app());
  const uint32_t* slot = a != nullptr ? a->containerSlot(id) : nullptr;
  return slot != nullptr ? &containers_.at(*slot) : nullptr;
}

std::string Scheduler::amDiagnostics(const Application& app) const {
  if (app.amRunning() || !app.managedAm() || app.state() != AppState::ACCEPTED) return "";
  const Decision* skip = lastSkip(app.id());
  if (skip == nullptr) return "[Waiting for resources to be assigned for AM.]";
  return fmt::format("[Waiting for resources to be assigned for AM. Last skipped: {} ({})]",
                     skip->reason, toString(skip->skip));
}

const Decision* Scheduler::lastSkip(AppId id) const {
  auto it = lastSkip_.find(id);
  return it == lastSkip_.end() ? nullptr : &it->second;
}

std::string Scheduler::appIdString(AppId id) const {
  // Formats parsed at compile time: the RM names every container it hands out and every status
  // it is told about.
  return fmt::format(FMT_COMPILE("application_{}_{:04d}"), settings_.clusterTimestamp, id.value());
}

std::string Scheduler::attemptIdString(AttemptId id) const {
  return fmt::format(FMT_COMPILE("appattempt_{}_{:04d}_{:06d}"), settings_.clusterTimestamp,
                     id.app.value(), id.attempt);
}

// YARN's ContainerId.toString: the epoch is the sequence number's bits above 40, printed as
// container_e<epoch>_ when it is not 0.
std::string Scheduler::containerIdString(ContainerId id) const {
  constexpr uint64_t kSeqMask = (uint64_t{1} << kEpochShift) - 1;
  if (const uint64_t epoch = id.seq >> kEpochShift; epoch != 0) {
    return fmt::format(FMT_COMPILE("container_e{}_{}_{:04d}_{:02d}_{:06d}"), epoch,
                       settings_.clusterTimestamp, id.attempt.app.value(), id.attempt.attempt,
                       id.seq & kSeqMask);
  }
  return fmt::format(FMT_COMPILE("container_{}_{:04d}_{:02d}_{:06d}"), settings_.clusterTimestamp,
                     id.attempt.app.value(), id.attempt.attempt, id.seq);
}

Result<ContainerId> Scheduler::parseContainerId(std::string_view s) const {
  const std::string_view original = s;
  auto bad = [&] { return invalidArgument("'{}' is not a container id", original); };
  if (!s.starts_with("container_")) return bad();
  s.remove_prefix(10);
  uint64_t epoch = 0;
  if (s.starts_with("e")) {  // container_e<epoch>_...
    auto us = s.find('_');
    if (us == std::string_view::npos) return bad();
    auto [ptr, ec] = std::from_chars(s.data() + 1, s.data() + us, epoch);
    if (us == 1 || ec != std::errc() || ptr != s.data() + us || epoch >= (uint64_t{1} << 23)) {
      return bad();
    }
    s.remove_prefix(us + 1);
  }
  uint64_t parts[4];
  for (int i = 0; i < 4; ++i) {
    auto us = s.find('_');
    std::string_view p = i < 3 ? s.substr(0, us) : s;
    if (p.empty() || (i < 3 && us == std::string_view::npos)) return bad();
    auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), parts[i]);
    if (ec != std::errc() || ptr != p.data() + p.size()) return bad();
    if (i < 3) s.remove_prefix(us + 1);
  }
  if (parts[3] >= (uint64_t{1} << kEpochShift)) return bad();
  return ContainerId{{AppId(static_cast<uint32_t>(parts[1])), static_cast<uint32_t>(parts[2])},
                     (epoch << kEpochShift) | parts[3]};
}

void Scheduler::record(Decision d) {
  d.time = clock_.nowMs();
  if (d.kind == DecisionKind::kPreemptMark && outcome_ != nullptr) {
    // Every growth of an app's preemption message is recorded as a mark (preemptionMessage()):
    // the one place the Outcome learns of it.
    ContainerChange& c = outcome_->containers.emplace_back();
    c.action = ContainerAction::kPreemptionMarked;
    c.id = d.container;
    c.node = d.node;
    c.resource = d.resource;
    c.key = d.key;
    c.am = d.am;
    auto& grew = outcome_->preemptionMessageGrew;
    if (std::find(grew.begin(), grew.end(), d.app) == grew.end()) grew.push_back(d.app);
  }
  emit(d);
}

void Scheduler::addContainerChange(ContainerAction action, const Container& c, int32_t exitStatus) {
  ContainerChange& o = outcome_->containers.emplace_back();
  o.action = action;
  o.id = c.id;
  o.node = c.node;
  o.resource = c.resource;
  o.key = c.key;
  o.locality = action == ContainerAction::kAllocated ? c.locality : Locality::kOffSwitch;
  o.am = c.isAm;
  o.exitStatus = exitStatus;
}

void Scheduler::forgetSkip(AppId id) {
  if (id.value() < lastSkipSerial_.size() && lastSkipSerial_[id.value()] != 0) {
    lastSkipSerial_[id.value()] = 0;
    lastSkip_.erase(id);
  }
}

bool Scheduler::repeatSkip(AppId app, uint64_t serial, TimeMs now) {
  if (serial == 0 || app.value() >= lastSkipSerial_.size() ||
      lastSkipSerial_[app.value()] != serial) {
    return false;
  }
  lastSkip_.at(app).time = now;
  return true;
}

uint64_t Scheduler::recordSkip(const Application& app, NodeId node, const SchedulerKey& key,
                               SkipReason why, std::string text,
                               std::vector<std::pair<std::string, double>> numbers) {
  auto it = lastSkip_.find(app.id());
  const bool same = it != lastSkip_.end() && it->second.skip == why && it->second.key == key;
  Decision d;
  d.kind = DecisionKind::kSkip;
  d.time = clock_.nowMs();
  d.app = app.id();
  d.node = node;
  d.queue = app.queue();
  d.key = key;
  d.skip = why;
  d.reason = std::move(text);
  d.numbers = std::move(numbers);
  if (!same) emit(d);
  lastSkip_[app.id()] = std::move(d);
  if (lastSkipSerial_.size() <= app.id().value()) lastSkipSerial_.resize(app.id().value() + 1, 0);
  lastSkipSerial_[app.id().value()] = ++skipSerials_;
  return skipSerials_;
}

// --- Nodes ---------------------------------------------------------------------------------

Result<NodeId> Scheduler::nodeByName(std::string_view name) const {
  auto id = cluster_.findNode(name);
  if (!id) return notFound("unknown node '{}'", name);
  return *id;
}

Status Scheduler::onNodeAdded(const NodeAdded& e) {
  if (e.labels.size() > 1) {
    return invalidArgument("node '{}' has {} labels; a node belongs to one partition", e.name,
                           e.labels.size());
  }
  for (const std::string& l : e.labels) {
    if (!cluster_.hasNodeLabel(l)) {
      return invalidArgument("node '{}' names label '{}', which is not a cluster node label",
                             e.name, l);
    }
  }
  for (const auto& [key, value] : e.attributes) {
    // Node attributes (YARN-3409): "name" (centralised), "rm.yarn.io/name" or
    // "nm.yarn.io/name" (distributed); STRING values.
    const size_t slash = key.find('/');
    const std::string_view prefix =
        slash == std::string::npos ? std::string_view() : std::string_view(key).substr(0, slash);
    const std::string_view name = slash == std::string::npos
                                      ? std::string_view(key)
                                      : std::string_view(key).substr(slash + 1);
    if ((!prefix.empty() && prefix != "rm.yarn.io" && prefix != "nm.yarn.io") || name.empty() ||
        name.find_first_of("/= ") != std::string_view::npos) {
      return invalidArgument(
          "node '{}': attribute '{}' must be name, rm.yarn.io/name or nm.yarn.io/name", e.name,
          key);
    }
  }
  SPINDLE_ASSIGN_OR_RETURN(NodeId id, cluster_.addNode(e.name, e.rack, e.total));
  Node& n = cluster_.node(id);
  n.setLabels({e.labels.begin(), e.labels.end()});
  n.setAttributes(e.attributes);
  if (placement_) placement_->nodeAdded(n);
  Decision d;
  d.kind = DecisionKind::kNodeAdded;
  d.node = id;
  d.resource = e.total;
  record(std::move(d));
  onClusterChanged();
  return Status::ok();
}

Status Scheduler::onNodeRemoved(const NodeRemoved& e) {
  SPINDLE_ASSIGN_OR_RETURN(NodeId id, nodeByName(e.name));
  // Containers on a lost node end ABORTED (AbstractYarnScheduler's "node lost" completion).
  std::vector<ContainerId> onNode(cluster_.node(id).containers().begin(),
                                  cluster_.node(id).containers().end());
  for (ContainerId c : onNode) {
    finishContainer(c, ContainerEvent::KILL, ContainerExitStatus::ABORTED, DecisionKind::kKill,
                    "container released on a lost node");
  }
  if (placement_) placement_->nodeRemoved(id);
  if (auto r = cluster_.node(id).reservation()) {
    if (auto* a = apps_.count(r->container.app()) ? apps_[r->container.app()].get() : nullptr) {
      a->removeReserved(r->resource);
    }
    cluster_.unreserve(id);
  }
  SPINDLE_RETURN_IF_ERROR(cluster_.removeNode(id));
  Decision d;
  d.kind = DecisionKind::kNodeRemoved;
  d.node = id;
  record(std::move(d));
  onClusterChanged();
  return Status::ok();
}

Status Scheduler::onNodeResourceUpdate(const NodeResourceUpdate& e) {
  SPINDLE_ASSIGN_OR_RETURN(NodeId id, nodeByName(e.name));
  SPINDLE_RETURN_IF_ERROR(cluster_.updateNodeTotal(id, e.total));
  Decision d;
  d.kind = DecisionKind::kNodeUpdated;
  d.node = id;
  d.resource = e.total;
  record(std::move(d));
  onClusterChanged();
  return Status::ok();
}

Status Scheduler::onHeartbeat(const NodeHeartbeat& e) {
  SPINDLE_ASSIGN_OR_RETURN(NodeId id, nodeByName(e.name));
  return heartbeat(id, e.completed);
}

Status Scheduler::heartbeat(NodeId id, const std::vector<CompletedContainer>& completed) {
  EventScope scope(*this);
  if (!cluster_.contains(id)) return notFound("unknown node id {}", id.value());
  if (!completed.empty()) SPINDLE_RETURN_IF_ERROR(updateCompletedContainers(id, completed));
  schedule(id);
  return Status::ok();
}

Status Scheduler::updateCompletedContainers(NodeId id,
                                            std::span<const CompletedContainer> completed) {
  // The reported containers' apps are scattered in memory: start loading them all at once
  // instead of one cache miss after another.
  for (const auto& c : completed) {
    if (const Application* a = liveAppOrNull(c.id.app())) a->prefetchHotFields();
  }
  // Their records too (the first two cache lines, what a release reads: see container.h),
  // before the first is read.
  reported_.clear();
  for (const auto& c : completed) {
    const Container* live = findContainer(c.id);
    reported_.push_back(live);
    if (live != nullptr) {
      prefetchLine(live);
      prefetchLine(reinterpret_cast<const char*>(live) + kCacheLineSize);
    }
  }
  for (size_t i = 0; i < completed.size(); ++i) {
    const Container* live = reported_[i];
    if (live == nullptr) continue;  // already released: YARN ignores stale reports
    if (live->node != id) {
      return invalidArgument("node '{}' reports container {} that runs on '{}'",
                             cluster_.nodeName(id), containerIdString(completed[i].id),
                             cluster_.nodeName(live->node));
    }
  }
  for (const auto& c : completed) {
    // An id reported twice is finished once: finishContainer ignores unknown ids.
    finishContainer(c.id, ContainerEvent::FINISHED, c.exitStatus, DecisionKind::kComplete,
                    "reported complete by its node");
  }
  return Status::ok();
}

bool Scheduler::hasPendingDemand() const {
  for (const auto& [id, a] : apps_) {
    if (a->asks().hasPending()) return true;
  }
  return false;
}

// --- Applications --------------------------------------------------------------------------

Result<Application*> Scheduler::liveApp(AppId id) {
  auto it = apps_.find(id);
  if (it == apps_.end()) {
    if (finishedApps_.count(id)) return failedPrecondition("{} has finished", appIdString(id));
    return notFound("unknown application {}", appIdString(id));
  }
  return it->second.get();
}

Status Scheduler::transitionApp(Application& app, AppEvent event, AppTransitionContext ctx) {
  SPINDLE_ASSIGN_OR_RETURN(AppTransition t, findAppTransition(app.state(), event, ctx));
  app.setState(t.to);
  if (t.to == AppState::FINAL_SAVING && t.afterSave) {
    AppTransitionContext saved;
    saved.savedTarget = *t.afterSave;
    SPINDLE_ASSIGN_OR_RETURN(AppState next,
                             nextAppState(app.state(), AppEvent::APP_UPDATE_SAVED, saved));
    app.setState(next);
  }
  return Status::ok();
}

void Scheduler::endBulkAdmission() {
  EventScope scope(*this);
  if (!bulkAdmission_) return;
  bulkAdmission_ = false;
  onBulkAdmissionEnded();
}

Result<AppId> Scheduler::submit(const AppSubmission& submission) {
  EventScope scope(*this);
  if (!submission.amResource.isNonNegative()) {
    return invalidArgument("AM resource {} is negative", submission.amResource.toString());
  }
  if (!submission.amResource.isZero() &&
      !ResourceLimit::of(settings_.bounds.maximum, settings_.types.count())
           .allows(submission.amResource)) {
    return invalidArgument("AM resource {} exceeds the maximum allocation {}",
                           submission.amResource.toString(), settings_.bounds.maximum.toString());
  }
  AppId id(nextAppSeq_);
  if (submission.id.valid()) {
    if (apps_.contains(submission.id) || finishedApps_.contains(submission.id)) {
      return invalidArgument("{} is already in use", appIdString(submission.id));
    }
    id = submission.id;
  }
  nextAppSeq_ = std::max(nextAppSeq_, id.value() + 1);
  auto app = std::make_unique<Application>(
      id, submission,
      submission.recoveredSubmitTime >= 0 ? submission.recoveredSubmitTime : clock_.nowMs());
  app->setFirstContainerSeq((settings_.epoch << kEpochShift) + 1);
  SPINDLE_RETURN_IF_ERROR(transitionApp(*app, AppEvent::START));
  SPINDLE_RETURN_IF_ERROR(transitionApp(*app, AppEvent::APP_NEW_SAVED));
  Status admitted = admitApp(*app);
  Decision d;
  d.app = id;
  d.queue = app->queue();
  if (!admitted.isOk()) {
    SPINDLE_RETURN_IF_ERROR(transitionApp(*app, AppEvent::APP_REJECTED));
    // RMAppImpl's FinalTransition stamps the finish time of a rejected app too.
    app->setFinishTime(clock_.nowMs());
    if (outcome_ != nullptr) {
      outcome_->apps.push_back({AppAction::kRejected, id, app->state(), admitted.message()});
    }
    d.kind = DecisionKind::kAppRejected;
    d.reason = admitted.message();
    record(std::move(d));
    finishedApps_.emplace(id, std::move(app));
    return admitted;
  }
  SPINDLE_RETURN_IF_ERROR(transitionApp(*app, AppEvent::APP_ACCEPTED));
  app->startAttempt();
  if (submission.recoveredAttempt > 1) app->recoverAttempt(submission.recoveredAttempt);
  if (outcome_ != nullptr) outcome_->apps.push_back({AppAction::kAccepted, id, {}, {}});
  d.kind = DecisionKind::kAppAccepted;
  record(std::move(d));
  Application& a = *app;
  apps_.emplace(id, std::move(app));
  if (liveById_.size() <= id.value()) liveById_.resize(id.value() + 1, nullptr);
  liveById_[id.value()] = &a;
  if (placement_ && !submission.applicationTags.empty()) {
    placement_->setApplicationTags(id, submission.applicationTags);
  }
  if (!submission.amResource.isZero() && !submission.amRecovering) {
    ResourceRequest am{kAmKey, std::string(kAnyResourceName),   submission.amResource, 1,
                       true,   submission.amNodeLabelExpression};
    SPINDLE_ASSIGN_OR_RETURN(auto normalized, normalizeAsks({am}, a));
    SPINDLE_RETURN_IF_ERROR(a.asks().update(normalized));
    onAsksChanged(a);
  }
  return id;
}

Status Scheduler::onAppRemoved(const AppRemoved& e) {
  SPINDLE_ASSIGN_OR_RETURN(Application * a, liveApp(e.app));
  std::vector<ContainerId> live(a->liveContainers().begin(), a->liveContainers().end());
  for (ContainerId c : live) {
    finishContainer(c, ContainerEvent::KILL, ContainerExitStatus::KILLED_AFTER_APP_COMPLETION,
                    DecisionKind::kKill, "application finished");
  }
  for (NodeId n : cluster_.nodeIds()) {
    const auto& r = cluster_.node(n).reservation();
    if (r && r->container.app() == e.app) {
      a->removeReserved(r->resource);
      cluster_.unreserve(n);
    }
  }
  a->asks().clear();
  if (placement_) placement_->appRemoved(e.app);
  // The attempt ends the way the app does; a killed app goes through KILLING first.
  if (e.finalState == AppState::KILLED) {
    SPINDLE_RETURN_IF_ERROR(transitionApp(*a, AppEvent::KILL));
    SPINDLE_RETURN_IF_ERROR(transitionApp(*a, AppEvent::ATTEMPT_KILLED));
  } else if (e.finalState == AppState::FAILED) {
    SPINDLE_RETURN_IF_ERROR(transitionApp(*a, AppEvent::ATTEMPT_FAILED));
  } else {
    SPINDLE_RETURN_IF_ERROR(transitionApp(*a, AppEvent::ATTEMPT_FINISHED));
  }
  a->setFinishTime(clock_.nowMs());
  onAppRemoved(*a);
  Decision d;
  if (outcome_ != nullptr)
    outcome_->apps.push_back({AppAction::kFinished, e.app, e.finalState, {}});
  d.kind = DecisionKind::kAppFinished;
  d.app = e.app;
  d.queue = a->queue();
  d.reason = toString(e.finalState);
  record(std::move(d));
  forgetSkip(e.app);
  finishedApps_.emplace(e.app, std::move(apps_.at(e.app)));
  apps_.erase(e.app);
  liveById_[e.app.value()] = nullptr;
  return Status::ok();
}

Status Scheduler::restartAttempt(AppId id, bool countsAsFailure, bool keepContainers) {
  EventScope scope(*this);
  SPINDLE_ASSIGN_OR_RETURN(Application * a, liveApp(id));
  if (a->amRunning()) {
    return failedPrecondition("{}: the AM container is still running", appIdString(id));
  }
  const bool remain =
      !countsAsFailure || static_cast<int64_t>(a->attempt()) < settings_.maxAppAttempts;
  if (!remain) return onAppRemoved(AppRemoved{id, AppState::FAILED});
  std::vector<ContainerId> live;
  if (!keepContainers) live.assign(a->liveContainers().begin(), a->liveContainers().end());
  for (ContainerId c : live) {
    finishContainer(c, ContainerEvent::KILL, ContainerExitStatus::KILLED_BY_RESOURCEMANAGER,
                    DecisionKind::kKill, "application attempt failed");
  }
  for (NodeId n : cluster_.nodeIds()) {
    const auto& r = cluster_.node(n).reservation();
    if (r && r->container.app() == id) {
      a->removeReserved(r->resource);
      cluster_.unreserve(n);
    }
  }
  a->asks().clear();
  if (placement_) placement_->dropRequests(id);
  AppTransitionContext ctx;
  ctx.attemptsRemain = true;
  SPINDLE_RETURN_IF_ERROR(transitionApp(*a, AppEvent::ATTEMPT_FAILED, ctx));
  a->startAttempt();
  forgetSkip(id);
  if (!a->submission().amResource.isZero()) {
    ResourceRequest am{kAmKey, std::string(kAnyResourceName),        a->submission().amResource, 1,
                       true,   a->submission().amNodeLabelExpression};
    SPINDLE_ASSIGN_OR_RETURN(auto normalized, normalizeAsks({am}, *a));
    SPINDLE_RETURN_IF_ERROR(a->asks().update(normalized));
  }
  onAsksChanged(*a);
  return Status::ok();
}

Result<std::vector<ResourceRequest>> Scheduler::normalizeAsks(
    const std::vector<ResourceRequest>& asks, const Application& app) const {
  // SchedulerUtils.normalizeAndValidateRequest: negative or above-maximum asks are refused,
  // the rest rounded up to the minimum allocation and increment.
  const ResourceLimit max = ResourceLimit::of(settings_.bounds.maximum, settings_.types.count());
  const std::optional<QueueMaximumAllocation> queueMax = queueMaximumAllocation(app);
  AllocationBounds bounds = settings_.bounds;
  if (queueMax) bounds.maximum = Resource::componentwiseMin(bounds.maximum, queueMax->maximum);
  std::vector<ResourceRequest> out;
  out.reserve(asks.size());
  for (const auto& rr : asks) {
    if (!rr.capability.isNonNegative()) {
      return invalidArgument("{}: ask '{}' at priority {}: negative capability {}",
                             appIdString(app.id()), rr.resourceName, rr.key.priority,
                             rr.capability.toString());
    }
    if (!max.allows(rr.capability)) {
      return invalidArgument(
          "{}: ask '{}' at priority {}: capability {} exceeds the maximum allocation {}",
          appIdString(app.id()), rr.resourceName, rr.key.priority, rr.capability.toString(),
          settings_.bounds.maximum.toString());
    }
    if (queueMax) SPINDLE_RETURN_IF_ERROR(checkQueueMaximum(app, rr, *queueMax));
    if (rr.numContainers < 0) {
      return invalidArgument("{}: ask '{}' at priority {}: negative container count {}",
                             appIdString(app.id()), rr.resourceName, rr.key.priority,
                             rr.numContainers);
    }
    ResourceRequest n = rr;
    n.capability = normalizeRequest(calculator(), rr.capability, bounds);
    out.push_back(std::move(n));
  }
  return out;
}

// SchedulerUtils.validateResourceRequest against the queue's maximum, with
// InvalidResourceRequestException's GREATER_THAN_MAX_RESOURCE_MESSAGE_TEMPLATE (the first type
// over the limit is named).
Status Scheduler::checkQueueMaximum(const Application& app, const ResourceRequest& rr,
                                    const QueueMaximumAllocation& queueMax) const {
  for (int i = 0; i < settings_.types.count(); ++i) {
    if (rr.capability.get(i) <= queueMax.maximum.get(i)) continue;
    return invalidArgument(
        "{}: ask '{}' at priority {}: Invalid resource request! Cannot allocate containers as "
        "requested resource is greater than maximum allowed allocation. Requested resource "
        "type=[{}], Requested resource={}, maximum allowed allocation={} (maxContainerAllocation "
        "of queue {})",
        appIdString(app.id()), rr.resourceName, rr.key.priority, settings_.types.info(i).name,
        rr.capability.toString(), queueMax.maximum.toString(), queueMax.queue);
  }
  return Status::ok();
}

Status Scheduler::onAppAllocate(const AppAllocate& e) {
  SPINDLE_ASSIGN_OR_RETURN(Application * a, liveApp(e.app));
  for (ContainerId c : e.releases) {
    if (!a->liveContainers().count(c)) {
      return notFound("{} has no live container {}", appIdString(e.app), containerIdString(c));
    }
  }
  SPINDLE_ASSIGN_OR_RETURN(auto normalized, normalizeAsks(e.asks, *a));
  SPINDLE_RETURN_IF_ERROR(validateAsks(*a, normalized));
  std::vector<SchedulingRequest> requests;
  if (!e.schedulingRequests.empty()) {
    SPINDLE_RETURN_IF_ERROR(checkSchedulingRequests(*a, e, requests));
  }
  SPINDLE_RETURN_IF_ERROR(a->asks().update(normalized));
  a->updateBlacklist(e.blacklistAdd, e.blacklistRemove);
  for (ContainerId c : e.releases) {
    finishContainer(c, ContainerEvent::RELEASED, ContainerExitStatus::ABORTED,
                    DecisionKind::kRelease, "released by the application");
  }
  if (!requests.empty()) applySchedulingRequests(*a, std::move(requests));
  onAsksChanged(*a);
  return Status::ok();
}

Status Scheduler::onPlaceContainer(const PlaceContainer& e) {
  SPINDLE_ASSIGN_OR_RETURN(Application * a, liveApp(e.app));
  SPINDLE_ASSIGN_OR_RETURN(NodeId node, nodeByName(e.node));
  if (!e.resource.isNonNegative()) {
    return invalidArgument("place: negative resource {}", e.resource.toString());
  }
  if (!e.nodeLabel.empty() && cluster_.node(node).partition() != e.nodeLabel) {
    return invalidArgument(
        "place: a container asking for label '{}' cannot run on {} "
        "(partition '{}')",
        e.nodeLabel, e.node, cluster_.node(node).partition());
  }
  if (e.reserved) return placeReservation(*a, node, SchedulerKey{e.priority, 0}, e.resource);
  // Memory and vcores must fit in what the node has left. Other resource types are not checked:
  // YARN's preemption tests (ProportionalCapacityPreemptionPolicyMockFramework) declare those
  // cluster totals apart from the containers they place, and their vectors depend on it.
  const Node& target = cluster_.node(node);
  const Resource left = target.unallocated();
  if (e.resource.memoryMb() > left.memoryMb() || e.resource.vcores() > left.vcores()) {
    return invalidArgument("place: {} does not fit on {}: {} unallocated of {} ({} allocated)",
                           e.resource.toString(), e.node, left.toString(),
                           target.total().toString(), target.allocated().toString());
  }
  Container c;
  if (e.recoveredId) {
    if (e.recoveredId->attempt != a->attemptId()) {
      return invalidArgument("place: {} is not of {}'s current attempt {}",
                             containerIdString(*e.recoveredId), appIdString(e.app),
                             attemptIdString(a->attemptId()));
    }
    if (findContainer(*e.recoveredId) != nullptr) {
      return invalidArgument("place: {} is already live", containerIdString(*e.recoveredId));
    }
    if (e.isAm && a->amRunning()) {
      return invalidArgument("place: {} already has an AM container", appIdString(e.app));
    }
    c.id = *e.recoveredId;
  } else {
    c.id = a->nextContainerId();
  }
  c.node = node;
  c.resource = e.resource;
  c.key = SchedulerKey{e.priority, 0};
  c.locality = Locality::kNodeLocal;
  c.isAm = e.isAm;
  c.state = ContainerState::RUNNING;
  c.allocatedAt = clock_.nowMs();
  c.askedCapability = e.resource;
  c.askedRelaxLocality = true;
  c.askedLabel = e.nodeLabel;
  cluster_.allocate(node, c.id, c.resource);
  const uint32_t slot = containers_.acquire();
  a->addContainer(c.id, c.resource, c.isAm, slot);
  if (a->state() == AppState::ACCEPTED) (void)transitionApp(*a, AppEvent::ATTEMPT_REGISTERED);
  Container& placed = containers_.at(slot);
  placed = c;
  if (!e.tags.empty()) ensurePlacement().containerPlaced(placed, e.tags);
  onContainerAllocated(*a, placed);
  if (outcome_ != nullptr) addContainerChange(ContainerAction::kAllocated, placed, 0);
  Decision d;
  d.kind = DecisionKind::kAllocate;
  d.app = a->id();
  d.container = c.id;
  d.node = node;
  d.queue = a->queue();
  d.key = c.key;
  d.locality = c.locality;
  d.resource = c.resource;
  d.am = c.isAm;
  d.reason = "placed directly (running container)";
  record(std::move(d));
  return Status::ok();
}

Status Scheduler::placeReservation(Application&, NodeId, const SchedulerKey&, const Resource&) {
  return failedPrecondition("the {} does not place reserved containers", typeName());
}

Status Scheduler::onContainerFinishedEvent(const ContainerFinished& e) {
  if (findContainer(e.id) == nullptr) {
    return notFound("no live container {}", containerIdString(e.id));
  }
  finishContainer(e.id, ContainerEvent::FINISHED, e.exitStatus, DecisionKind::kComplete,
                  "completed");
  return Status::ok();
}

// --- Containers ----------------------------------------------------------------------------

namespace {

// The state a live container ends in. The AM must have pulled (ACQUIRED) a container to release
// it, and its node must have launched it (RUNNING) to report it finished; scenarios and traces
// do not always send those events, so they are implied here through the same transition table.
Result<ContainerState> walkToFinalState(ContainerState state, ContainerEvent event) {
  auto step = [&state](ContainerEvent e) {
    if (auto next = nextContainerState(state, e); next.isOk()) state = *next;
  };
  if (event == ContainerEvent::RELEASED || event == ContainerEvent::FINISHED) {
    if (state == ContainerState::ALLOCATED) step(ContainerEvent::ACQUIRED);
  }
  if (event == ContainerEvent::FINISHED && state == ContainerState::ACQUIRED) {
    step(ContainerEvent::LAUNCHED);
  }
  return nextContainerState(state, event);
}

ContainerState finalContainerState(ContainerState state, ContainerEvent event) {
  // walkToFinalState for every (state, event), computed once: every release runs this.
  static const std::vector<std::optional<ContainerState>> kFinal = [] {
    std::vector<std::optional<ContainerState>> t;
    for (ContainerState s : allContainerStates()) {
      for (ContainerEvent e : allContainerEvents()) {
        auto r = walkToFinalState(s, e);
        t.push_back(r.isOk() ? std::optional<ContainerState>(*r) : std::nullopt);
      }
    }
    return t;
  }();
  const size_t i =
      static_cast<size_t>(state) * allContainerEvents().size() + static_cast<size_t>(event);
  if (i < kFinal.size() && kFinal[i]) return *kFinal[i];
  auto next = walkToFinalState(state, event);
  if (!next.isOk()) {
    SPINDLE_LOG_ERROR("{}", next.status().message());
    return ContainerState::KILLED;
  }
  return *next;
}

}  // namespace

Container& Scheduler::allocate(Application& app, const SchedulerKey& key, NodeId node,
                               Locality locality, const Reason& reason) {
  const Node& n = cluster_.node(node);
  const ContainerId id = app.nextContainerId();
  const Resource resource = app.asks().allocate(key, locality, n.name(), n.rack()).value();
  // The first container of a managed AM's attempt is its AM (FiCaSchedulerApp: AM container
  // is the one allocated while the AM is not running).
  const bool isAm = !app.amRunning() && app.managedAm() && key == kAmKey;
  cluster_.allocate(node, id, resource);
  const uint32_t slot = containers_.acquire();
  app.addContainer(id, resource, isAm, slot);
  // The record is built in its table slot (a recycled slot keeps its strings' capacity).
  Container& c = containers_.at(slot);
  c.id = id;
  // The ANY request it was allocated against; allocate() above only lowered its count, which
  // the record keeps as 1.
  const ResourceRequest& any = *app.asks().find(key, kAnyResourceName);
  c.askedCapability = any.capability;
  c.askedRelaxLocality = any.relaxLocality;
  if (c.askedLabel != any.nodeLabelExpression) c.askedLabel = any.nodeLabelExpression;
  c.resource = resource;
  c.node = node;
  c.key = key;
  c.locality = locality;
  c.isAm = isAm;
  c.state = ContainerState::ALLOCATED;
  c.allocatedAt = clock_.nowMs();
  if (c.isAm) app.setLaunchTime(clock_.nowMs());
  // The scheduler sees no AM registration call; an app counts as RUNNING once its AM container
  // is allocated (or, for an unmanaged AM, once it gets its first container).
  if (app.state() == AppState::ACCEPTED && (c.isAm || !app.managedAm())) {
    (void)transitionApp(app, AppEvent::ATTEMPT_REGISTERED);
  }
  forgetSkip(app.id());
  const Container& placed = c;
  if (placement_) placement_->containerAllocated(placed);
  onContainerAllocated(app, placed);
  if (outcome_ != nullptr) addContainerChange(ContainerAction::kAllocated, placed, 0);
  ++decisionCount_;
  if (sink_) {
    DecisionRecord d;
    d.kind = DecisionKind::kAllocate;
    d.time = clock_.nowMs();
    d.app = app.id();
    d.container = placed.id;
    d.node = node;
    d.queue = app.queue();
    d.key = key;
    d.locality = locality;
    d.resource = placed.resource;
    d.am = placed.isAm;
    d.reason = reason;
    sink_->record(d);
  }
  return c;
}

void Scheduler::finishContainer(ContainerId id, ContainerEvent event, int32_t exitStatus,
                                DecisionKind kind, const Reason& reason) {
  // Containers exist only for live apps (checkInvariants rule 3).
  Application* a = liveAppOrNull(id.app());
  const uint32_t* found = a != nullptr ? a->containerSlot(id) : nullptr;
  if (found == nullptr) return;
  const uint32_t slot = *found;
  // The record stays readable in its slot until the end of this function; callbacks already
  // see the container gone (removed from the app's map below, as from a map erase before).
  containers_.unlink(slot);
  Container& c = containers_.at(slot);
  c.state = finalContainerState(c.state, event);
  cluster_.release(c.node, c.id, c.resource);
  a->removeContainer(c.id, c.resource, c.isAm);
  const TimeMs ran = clock_.nowMs() - c.allocatedAt;
  a->accounting().memoryMbMs += c.resource.memoryMb() * ran;
  a->accounting().vcoreMs += c.resource.vcores() * ran;
  if (exitStatus == ContainerExitStatus::PREEMPTED) {
    a->accounting().preempted += c.resource;
    ++(c.isAm ? a->accounting().numAmPreempted : a->accounting().numNonAmPreempted);
  }
  if (placement_) placement_->containerFinished(c);
  onContainerFinished(*a, c);
  if (outcome_ != nullptr) {
    addContainerChange(kind == DecisionKind::kComplete  ? ContainerAction::kCompleted
                       : kind == DecisionKind::kRelease ? ContainerAction::kReleased
                                                        : ContainerAction::kKilled,
                       c, exitStatus);
  }
  ++decisionCount_;
  if (sink_) {
    DecisionRecord d;
    d.kind = kind;
    d.time = clock_.nowMs();
    d.app = id.app();
    d.container = id;
    d.node = c.node;
    d.queue = a->queue();
    d.key = c.key;
    d.resource = c.resource;
    d.am = c.isAm;
    d.exitStatus = exitStatus;
    d.reason = reason;
    sink_->record(d);
  }
  containers_.recycle(slot);
}

// --- Invariants ----------------------------------------------------------------------------

// Linear in nodes + apps + containers (a few map lookups per container): the simulator may run
// it every N events at 10,000 nodes.
Status Scheduler::checkInvariants() const {
  SPINDLE_RETURN_IF_ERROR(cluster_.checkInvariants());
  SPINDLE_RETURN_IF_ERROR(checkContainerIndexes());
  SPINDLE_RETURN_IF_ERROR(checkAppCaches());
  if (placement_) SPINDLE_RETURN_IF_ERROR(placement_->checkInvariants());
  return checkSchedulerInvariants();
}

// Invariants 1 and 3, and the live-container caches:
//  - ContainerTable: size() equals the records iteration visits;
//  - each app's live-container index (Application::containerSlot) and the table are one
//    bijection: every record is found through its app's index at its own slot, every index
//    entry names a record of that id, and the two hold the same number of containers;
//  - each node's container set (Node::containers) holds exactly the live containers on it.
Status Scheduler::checkContainerIndexes() const {
  const std::vector<NodeId> nodeIds = cluster_.nodeIds();
  size_t maxNode = 0;
  for (NodeId n : nodeIds) maxNode = std::max<size_t>(maxNode, n.value() + 1);
  std::vector<Resource> perNode(maxNode);
  std::vector<size_t> countPerNode(maxNode, 0);
  size_t records = 0;
  for (const auto& [id, c] : containers_) {
    ++records;
    if (!cluster_.contains(c.node)) {
      return internalError("container {} is on a removed node", containerIdString(id));
    }
    if (liveAppOrNull(id.app()) == nullptr) {
      return internalError("container {} belongs to no live app", containerIdString(id));
    }
    if (findContainer(id) != &c) {
      return internalError(
          "live-container index of {}: container {} does not lead to its ContainerTable record",
          appIdString(id.app()), containerIdString(id));
    }
    if (!cluster_.node(c.node).containers().count(id)) {
      return internalError("node {}: container set lacks its live container {}",
                           cluster_.nodeName(c.node), containerIdString(id));
    }
    perNode[c.node.value()] += c.resource;
    ++countPerNode[c.node.value()];
  }
  if (records != containers_.size()) {
    return internalError("ContainerTable: size() {} != {} live records", containers_.size(),
                         records);
  }
  size_t indexed = 0;
  for (const auto& [id, a] : apps_) indexed += a->liveContainers().size();
  if (indexed != records) {
    return internalError("live-container indexes: the apps index {} containers, the table holds {}",
                         indexed, records);
  }
  for (NodeId n : nodeIds) {
    const Node& node = cluster_.node(n);
    if (node.allocated() != perNode[n.value()]) {
      return internalError("node {}: allocated {} != its containers {}", cluster_.nodeName(n),
                           node.allocated().toString(), perNode[n.value()].toString());
    }
    if (node.containers().size() != countPerNode[n.value()]) {
      return internalError("node {}: container set holds {}, {} live containers are on it",
                           cluster_.nodeName(n), node.containers().size(), countPerNode[n.value()]);
    }
  }
  return Status::ok();
}

// Invariant 2, and the caches of each app and of the app indexes:
//  - used and amUsed (Application::used / amUsed), recomputed from the app's live containers
//    through its index (each index entry must name a record of that id), and the kept AM
//    container (amContainer), which must be a live AM container of the app; reserved from the
//    nodes' reservations;
//  - Application::managedAm (fixed at submission) against the submission's AM resource;
//  - the AskTable's kept state (AskTable::checkInvariants: pending, active keys, the cached
//    ANY request);
//  - liveById_ (live apps by id value) and lastSkipSerial_ (which record lastSkip_ holds per app).
Status Scheduler::checkAppCaches() const {
  std::unordered_map<AppId, Resource> reservedByApp;
  for (NodeId n : cluster_.nodeIds()) {
    const auto& r = cluster_.node(n).reservation();
    if (r) reservedByApp[r->container.app()] += r->resource;
  }
  size_t live = 0;
  for (const auto& [id, a] : apps_) {
    const std::string name = appIdString(id);
    Resource used, amUsed;
    bool keptAmLive = false;
    for (ContainerId c : a->liveContainers()) {
      const Container& rec = containers_.at(*a->containerSlot(c));
      if (rec.id != c) {
        return internalError("{}: live-container index maps {} to the record of {}", name,
                             containerIdString(c), containerIdString(rec.id));
      }
      used += rec.resource;
      if (rec.isAm) amUsed += rec.resource;
      keptAmLive = keptAmLive || (rec.isAm && a->amContainer() == c);
    }
    if (a->used() != used) {
      return internalError("{}: used {} != its containers {}", name, a->used().toString(),
                           used.toString());
    }
    // Placed containers (PlaceContainer) may mark several AMs, as YARN's tests do: amUsed sums
    // them, and the kept AM container is the latest one, until an AM container ends.
    if (a->amUsed() != amUsed) {
      return internalError("{}: amUsed {} != its AM containers {}", name, a->amUsed().toString(),
                           amUsed.toString());
    }
    if (a->amRunning() && !keptAmLive) {
      return internalError("{}: kept AM container {} is not a live AM container of the app", name,
                           containerIdString(*a->amContainer()));
    }
    auto r = reservedByApp.find(id);
    const Resource reserved = r == reservedByApp.end() ? Resource() : r->second;
    if (a->reserved() != reserved) {
      return internalError("{}: reserved {} != its node reservations {}", name,
                           a->reserved().toString(), reserved.toString());
    }
    if (!a->used().isNonNegative() || !a->reserved().isNonNegative()) {
      return internalError("{}: negative usage", name);
    }
    if (a->managedAm() != !a->submission().amResource.isZero()) {
      return internalError("{}: cached managedAm {} != submission's AM resource {}", name,
                           a->managedAm(), a->submission().amResource.toString());
    }
    if (id.value() >= liveById_.size() || liveById_[id.value()] != a.get()) {
      return internalError("live-app index: {} is not indexed to its record", name);
    }
    ++live;
    SPINDLE_RETURN_IF_ERROR(a->asks().checkInvariants().withContext(name));
  }
  size_t indexed = 0;
  for (const Application* a : liveById_) indexed += a != nullptr ? 1 : 0;
  if (indexed != live) {
    return internalError("live-app index: {} entries, {} live apps", indexed, live);
  }
  size_t flagged = 0;
  for (uint64_t f : lastSkipSerial_) flagged += f != 0 ? 1 : 0;
  for (const auto& [id, d] : lastSkip_) {
    if (id.value() >= lastSkipSerial_.size() || lastSkipSerial_[id.value()] == 0) {
      return internalError("last-skip flags: {} has a last skip but no flag", appIdString(id));
    }
  }
  if (flagged != lastSkip_.size()) {
    return internalError("last-skip flags: {} set, {} apps have a last skip", flagged,
                         lastSkip_.size());
  }
  return Status::ok();
}

// --- Settings ------------------------------------------------------------------------------

Result<SchedulerSettings> schedulerSettingsFromConfig(const Configuration& conf,
                                                      std::string_view calculatorClass,
                                                      bool fairIncrements) {
  SchedulerSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.types, resourceTypesFromConfig(conf));
  SPINDLE_ASSIGN_OR_RETURN(auto rc, makeResourceCalculator(calculatorClass, s.types));
  s.calculator = std::move(rc);
  SPINDLE_ASSIGN_OR_RETURN(s.bounds, allocationBoundsFromConfig(conf, s.types, fairIncrements));
  SPINDLE_ASSIGN_OR_RETURN(s.clusterTimestamp, conf.getLong("spindle.cluster.timestamp", 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t epoch, conf.getLong("spindle.cluster.epoch", 0));
  if (epoch < 0 || epoch >= (int64_t{1} << 23)) {
    return invalidArgument("{}must be in [0, 2^23), got {}", conf.where("spindle.cluster.epoch"),
                           epoch);
  }
  s.epoch = static_cast<uint64_t>(epoch);
  constexpr std::string_view kMaxAttempts = "yarn.resourcemanager.am.max-attempts";
  SPINDLE_ASSIGN_OR_RETURN(s.maxAppAttempts, conf.getInt(kMaxAttempts, 2));
  if (s.maxAppAttempts <= 0) {
    return invalidArgument("{}must be a positive integer, got {}", conf.where(kMaxAttempts),
                           s.maxAppAttempts);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.aclEnabled, conf.getBool("yarn.acl.enable", false));
  SPINDLE_ASSIGN_OR_RETURN(s.maxApplicationPriority,
                           conf.getInt("yarn.cluster.max-application-priority", 0));
  constexpr std::string_view kHeartbeat = "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms";
  SPINDLE_ASSIGN_OR_RETURN(s.nmHeartbeatIntervalMs, conf.getLong(kHeartbeat, 1000));
  if (s.nmHeartbeatIntervalMs <= 0) {
    return invalidArgument("{}must be larger than 0, got {}", conf.where(kHeartbeat),
                           s.nmHeartbeatIntervalMs);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.placement, placementSettingsFromConfig(conf));
  s.conf = conf;
  return s;
}

}  // namespace spindle
