// RmCore: durable state and work-preserving restart (YARN's RMStateStore writes, RMAppManager's
// recoverApplication, AbstractYarnScheduler.recoverContainersOnNode; YARN-556).
//
// Steps at create() with a store:
//  1. open (integrity, schema version), load everything, bump the epoch (a new epoch per start:
//     container ids carry it, so ids never repeat across restarts).
//  2. the cluster timestamp of the stored apps is kept, so their ids stay valid.
//  3. each stored app is submitted to the scheduler again with its id, submit time and current
//     attempt; a finished one is removed at once with its final state; a live one whose attempt
//     had its AM container allocated waits for an NM to report it (no new AM ask).
// Then NMs (answered RESYNC by nodeHeartbeat, since the RM does not know them) register with
// their containers; recoverContainers() places each container of a live app's current attempt
// from an earlier epoch (PlaceContainer with its id: queue usage charged as an allocation);
// others are cleaned up. AMs get AM_RESYNC (rm_am.cc) and register again.
#include <algorithm>

#include "base/log.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"
#include "scheduler/reservation_system.h"

namespace spindle::rm {

namespace {

const char* kWaitKey = "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms";

protocol::FinalApplicationStatus finalStatusOf(const std::string& s) {
  using F = protocol::FinalApplicationStatus;
  for (F f : {F::UNDEFINED, F::SUCCEEDED, F::FAILED, F::KILLED}) {
    if (s == protocol::toString(f)) return f;
  }
  return F::UNDEFINED;
}

bool finalState(const std::string& s) { return s == "FINISHED" || s == "FAILED" || s == "KILLED"; }

}  // namespace

Status RmCore::openStore(store::StateStore& s, Configuration& conf, store::StoreSnapshot& snap,
                         uint64_t& epoch) {
  if (store::StoreStatus st = s.open(); !st.isOk()) return st.toStatus();
  if (store::StoreStatus st = s.load(snap); !st.isOk()) return st.toStatus();
  if (store::StoreStatus st = s.bumpEpoch(epoch); !st.isOk()) return st.toStatus();
  // Stored apps keep their ids: the cluster timestamp is theirs.
  for (const auto& [key, value] : snap.of(store::RecordKind::kApp)) {
    auto id = protocol::parseApplicationId(key);
    if (!id) {
      return invalidArgument("state store {}: app key '{}': {}", s.name(), key,
                             id.status().message());
    }
    conf.set("spindle.cluster.timestamp", std::to_string(id->clusterTimestamp));
    break;
  }
  conf.set("spindle.cluster.epoch", std::to_string(epoch));
  return Status::ok();
}

Status RmCore::recover(const store::StoreSnapshot& snap) {
  // Reservations first (ResourceManager.recover: the reservation system before the apps).
  SPINDLE_RETURN_IF_ERROR(recoverReservations(snap));
  std::map<std::string, std::vector<store::StoredAttempt>> attemptsOf;
  for (const auto& [key, value] : snap.of(store::RecordKind::kAttempt)) {
    auto a = store::storedAttemptFromJson(value);
    if (!a) return a.status().withContext("state store " + store_->name() + ": " + key);
    attemptsOf[a->appId].push_back(std::move(*a));
  }
  // One activation pass once every app is back, instead of one over the queue's pending apps
  // per app (Scheduler::beginBulkAdmission): 10,000 apps took minutes.
  driver_->beginBulkAdmission();
  for (const auto& [key, value] : snap.of(store::RecordKind::kApp)) {
    auto app = store::storedAppFromJson(value);
    if (!app) {
      (void)driver_->endBulkAdmission();
      return app.status().withContext("state store " + store_->name() + ": " + key);
    }
    auto& attempts = attemptsOf[app->appId];
    std::sort(attempts.begin(), attempts.end(),
              [](const auto& a, const auto& b) { return a.attempt < b.attempt; });
    recoverApp(*app, std::move(attempts));
  }
  if (auto out = driver_->endBulkAdmission(); out) apply(*out);
  // Centralised node attributes set by administrators (rm_node_attributes.cc).
  for (const auto& [host, value] : snap.of(store::RecordKind::kNodeAttributes)) {
    auto& attrs = centralized_[host];
    for (const auto& [key, v] : value.items()) {
      const size_t slash = key.find('/');
      if (slash == std::string::npos || !v.is_string()) continue;
      attrs[key] = {key.substr(0, slash), key.substr(slash + 1),
                    placement::NodeAttributeType::kString, v.get<std::string>()};
    }
  }
  if (recoveredApps_ > 0 || reservationsRecovered_ > 0) {
    recoveredAt_ = clock_.nowMs();
    schedulingWaitUntil_ = clock_.nowMs() + settings_.recoverySchedulingWaitMs;
    waitEnded_ = false;
  }
  SPINDLE_LOG_INFO("recovered {} apps from {} (epoch {}); {} ms scheduling wait ({})",
                   recoveredApps_, store_->name(), epoch_, settings_.recoverySchedulingWaitMs,
                   kWaitKey);
  return Status::ok();
}

void RmCore::recoverApp(const store::StoredApp& stored,
                        std::vector<store::StoredAttempt> attempts) {
  auto parsed = protocol::parseApplicationId(stored.appId);
  auto ctx = protocol::decodeSubmissionContext(stored.submissionContext.dump());
  if (!parsed || !ctx || parsed->clusterTimestamp != sched().settings().clusterTimestamp) {
    SPINDLE_LOG_ERROR("state store {}: app {} cannot be recovered: {}", store_->name(),
                      stored.appId,
                      !parsed ? parsed.status().message()
                      : !ctx  ? ctx.status().message()
                              : std::string("another cluster timestamp"));
    return;
  }
  const AppId id(parsed->seq);
  nextAppSeq_ = std::max(nextAppSeq_, parsed->seq + 1);
  const bool final = finalState(stored.state);
  const store::StoredAttempt* current = nullptr;
  for (const auto& a : attempts) {
    if (a.attempt == stored.currentAttempt) current = &a;
  }
  // An attempt whose AM container was allocated keeps it: an NM reports it (YARN recovers
  // the attempt as LAUNCHED and waits for the AM).
  const bool amAllocated = current != nullptr && !current->amContainerId.empty() &&
                           (current->state == "ALLOCATED" || current->state == "RUNNING");
  AppSubmission sub;
  sub.name = ctx->applicationName;
  sub.queue = stored.queue.empty() ? ctx->queue : stored.queue;
  sub.user = stored.user;
  sub.priority = ctx->priority;
  sub.applicationType = ctx->applicationType;
  sub.reservationId = ctx->reservationId;
  if (!ctx->unmanagedAm) sub.amResource = Resource::of(ctx->resource.memory, ctx->resource.vCores);
  sub.id = id;
  sub.recoveredAttempt = std::max<uint32_t>(stored.currentAttempt, 1);
  sub.recoveredSubmitTime = stored.submitTime;
  sub.amRecovering = !final && amAllocated;
  auto out = driver_->submit(sub);
  if (!out) {
    SPINDLE_LOG_ERROR("state store {}: app {} cannot be recovered: {}", store_->name(),
                      stored.appId, out.status().message());
    return;
  }
  const bool accepted = sched().findApp(id) != nullptr && appLive(id);
  auto app = std::make_unique<RmApp>();
  app->id = id;
  app->ctx = std::move(*ctx);
  app->user = stored.user;
  app->finalStatus = finalStatusOf(stored.finalStatus);
  app->diagnostics = stored.diagnostics;
  app->attempt = sub.recoveredAttempt;
  app->recovered = true;
  app->lastAmContact = clock_.nowMs();
  for (const store::StoredAttempt& a : attempts) {
    AttemptRecord r;
    r.attempt = a.attempt;
    r.startTime = a.startTime;
    r.finishedTime = a.finishTime;
    r.amContainerId = a.amContainerId;
    r.nodeId = a.nodeId;
    r.nodeHttpAddress = a.nodeHttpAddress;
    r.state = a.state;
    r.diagnostics = a.diagnostics;
    r.amContainerExitStatus = a.amContainerExitStatus;
    app->attempts.push_back(std::move(r));
  }
  if (app->attempts.empty() || app->attempts.back().attempt != app->attempt) {
    app->attempts.push_back(AttemptRecord::started(app->attempt, clock_.nowMs()));
  }
  apps_[id] = std::move(app);
  ++recoveredApps_;
  if (final) {
    if (accepted) {
      const AppState state = appStateFromString(stored.state).isOk()
                                 ? *appStateFromString(stored.state)
                                 : AppState::FINISHED;
      (void)driver_->handle(AppRemoved{id, state});
    }
    return;
  }
  if (!accepted) {
    // The scheduler refuses it now (its queue is gone, limits changed): it ends FAILED.
    markDirty(id);
    return;
  }
  if (sub.amRecovering) awaitingAm_.insert(id);
}

bool RmCore::inSchedulingWait() const {
  return !waitEnded_ && clock_.nowMs() < schedulingWaitUntil_;
}

void RmCore::endSchedulingWait() {
  waitEnded_ = true;
  if (ReservationSystem* rs = driver_->reservationSystem()) rs->setReplanning(true);
  // An attempt whose AM container no NM has reported yet is not failed here: YARN recovers it
  // as LAUNCHED and ends it only when an NM reports the AM container finished or when the AM
  // liveness monitor expires it (RMAppAttemptImpl's AttemptRecoveredTransition). A slow NM
  // re-registration must not kill a live AM and its containers.
  for (AppId id : awaitingAm_) {
    SPINDLE_LOG_INFO(
        "{}: the scheduling wait ended and no NodeManager has reported its AM "
        "container yet; the attempt ends if its AM is silent for {} ms",
        sched().appIdString(id), settings_.amExpiryMs);
  }
}

void RmCore::recoverContainers(RmNode& n, const std::vector<protocol::ContainerStatus>& statuses) {
  for (const protocol::ContainerStatus& cs : statuses) {
    auto id = sched().parseContainerId(cs.containerId);
    if (!id) {
      SPINDLE_LOG_WARN("node {}: ignoring container '{}': {}", n.nodeId, cs.containerId,
                       id.status().message());
      continue;
    }
    if (const Container* c = sched().findContainer(*id); c != nullptr) {
      if (c->node != n.sched) n.toCleanup.push_back(cs.containerId);
      continue;
    }
    RmApp* app = findApp(id->app());
    const uint64_t containerEpoch = id->seq >> kEpochShift;
    const bool recoverable = store_ && containerEpoch < epoch_ && app != nullptr &&
                             appLive(app->id) && id->attempt.attempt == app->attempt &&
                             cs.allocatedResource.has_value();
    if (recoverable && app->pendingRelease.erase(*id) > 0) {
      SPINDLE_LOG_INFO("node {}: container {} was released by its AM; stopping it", n.nodeId,
                       cs.containerId);
      if (cs.state != protocol::ContainerState::COMPLETE) n.toCleanup.push_back(cs.containerId);
      continue;
    }
    if (!recoverable) {
      if (cs.state != protocol::ContainerState::COMPLETE) n.toCleanup.push_back(cs.containerId);
      continue;
    }
    const bool isAm =
        !app->attempts.empty() && app->attempts.back().amContainerId == cs.containerId;
    PlaceContainer place{app->id, n.nodeId,
                         Resource::of(cs.allocatedResource->memory, cs.allocatedResource->vCores),
                         isAm ? kAmKey.priority : 1, isAm};
    place.recoveredId = *id;
    placingRecovered_ = true;
    auto out = driver_->handle(place);
    if (out) apply(*out);
    placingRecovered_ = false;
    if (!out) {
      SPINDLE_LOG_WARN("node {}: container {} not recovered: {}", n.nodeId, cs.containerId,
                       out.status().message());
      if (cs.state != protocol::ContainerState::COMPLETE) n.toCleanup.push_back(cs.containerId);
      continue;
    }
    SPINDLE_LOG_INFO("node {}: recovered {} container {}", n.nodeId, isAm ? "AM" : "a",
                     cs.containerId);
    if (isAm) awaitingAm_.erase(app->id);
    if (cs.state == protocol::ContainerState::COMPLETE) {
      // Finished while the RM was down: the AM hears of it on its next allocate.
      if (!cs.diagnostics.empty()) nodeDiagnostics_[*id] = cs.diagnostics;
      auto done = driver_->handle(ContainerFinished{*id, cs.exitStatus});
      if (done) apply(*done);
    }
  }
}

void RmCore::flush() {
  if (!store_ || (dirty_.empty() && dirtyReservations_.empty())) return;
  store::StoreBatch batch;
  for (const std::string& id : dirtyReservations_) putReservation(batch, id);
  dirtyReservations_.clear();
  for (AppId id : dirty_) {
    const RmApp* app = findApp(id);
    const Application* a = sched().findApp(id);
    if (app == nullptr) continue;
    store::StoredApp s;
    s.appId = sched().appIdString(id);
    s.user = app->user;
    s.queue = a ? a->queue() : app->ctx.queue;
    s.name = app->ctx.applicationName;
    s.type = app->ctx.applicationType;
    s.submitTime = a ? a->submitTime() : 0;
    s.startTime = s.submitTime;
    s.finishTime = a ? a->finishTime() : 0;
    // A rejected app never reached the scheduler's live set: it is FAILED, as YARN shows it.
    s.state = a ? toString(a->state()) : "FAILED";
    s.finalStatus = protocol::toString(app->finalStatus);
    s.diagnostics = app->diagnostics;
    s.submissionContext = protocol::toJson(app->ctx);
    s.currentAttempt = app->attempt;
    batch.put(store::RecordKind::kApp, s.appId, store::toJson(s));
    for (const AttemptRecord& r : app->attempts) {
      store::StoredAttempt t;
      t.appId = s.appId;
      t.attempt = r.attempt;
      t.attemptId = protocol::toString(protocol::ApplicationAttemptId{
          {sched().settings().clusterTimestamp, id.value()}, r.attempt});
      t.startTime = r.startTime;
      t.finishTime = r.finishedTime;
      t.amContainerId = r.amContainerId;
      t.nodeId = r.nodeId;
      t.nodeHttpAddress = r.nodeHttpAddress;
      t.state = r.state;
      t.diagnostics = r.diagnostics;
      t.amContainerExitStatus = r.amContainerExitStatus;
      t.trackingUrl = app->trackingUrl;
      batch.put(store::RecordKind::kAttempt, t.attemptId, store::toJson(t));
    }
  }
  dirty_.clear();
  store::StoreStatus st = store_->apply(batch);
  if (st.isOk()) return;
  SPINDLE_LOG_ERROR("state store write failed ({}): {}", store::toString(st.code()), st.message());
  storeFailed_.store(true, std::memory_order_release);
  if (onStoreFailure_) onStoreFailure_(st);
}

}  // namespace spindle::rm
