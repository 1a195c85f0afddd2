// An application as the scheduler sees it: YARN's SchedulerApplication plus the current
// attempt's SchedulerApplicationAttempt state (asks, live containers, usage).
//
//   Application& app = scheduler.app(id);
//   app.asks().count(key, "*");
//   app.used();                 // sum of live containers
//
// Invariants (Scheduler::checkInvariants): used == sum of live containers' resources;
// amUsed == the AM container's resource while it lives; reserved == sum of reservations.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "app/app_state.h"
#include "app/asks.h"
#include "base/clock.h"
#include "base/container_id_set.h"
#include "base/hot_path.h"
#include "base/ids.h"
#include "resource/resource.h"

namespace spindle {

// What a client submits (ApplicationSubmissionContext, the parts a scheduler reads).
struct AppSubmission {
  std::string name;
  std::string queue = "default";
  std::string user = "user";
  int32_t priority = 0;
  Resource amResource;  // zero: no AM container is asked for (an unmanaged AM)
  std::string amNodeLabelExpression;
  std::string applicationType = "YARN";
  // ApplicationSubmissionContext applicationTags (placement constraints' app-tag/ namespace).
  std::vector<std::string> applicationTags{};
  // ApplicationSubmissionContext.reservationID as its string ("" = none): an app submitted to a
  // plan queue with it runs in that reservation's queue.
  std::string reservationId{};
  // The id a client was handed before submitting (YARN's new-application): invalid, the
  // default, lets the scheduler take its next sequence number. A given id must not be in use.
  AppId id{};
  // Recovery after an RM restart (YARN's RMAppManager.recoverApplication): the attempt number
  // the app continues with (0: a new app, attempt 1), its original submit time (-1: now), and
  // whether its AM container runs already (no AM ask is added; the NM reports the container).
  uint32_t recoveredAttempt = 0;
  TimeMs recoveredSubmitTime = -1;
  bool amRecovering = false;
};

// Usage accounting YARN reports per app (memorySeconds, preempted counts...).
struct AppAccounting {
  int64_t memoryMbMs = 0;  // MB x ms, shown as memorySeconds / 1000
  int64_t vcoreMs = 0;
  int64_t containersAllocated = 0;
  int64_t numAmPreempted = 0;
  int64_t numNonAmPreempted = 0;
  Resource preempted;
};

class Application {
 public:
  Application(AppId id, AppSubmission sub, TimeMs submitTime)
      : id_(id),
        managedAm_(!sub.amResource.isZero()),
        submitTime_(submitTime),
        sub_(std::move(sub)) {}

  AppId id() const { return id_; }
  const AppSubmission& submission() const { return sub_; }
  const std::string& queue() const { return sub_.queue; }
  void setQueue(std::string q) { sub_.queue = std::move(q); }
  const std::string& user() const { return sub_.user; }
  int32_t priority() const { return sub_.priority; }
  // The scheduler may replace the submitted priority (queue default, cluster maximum).
  void setPriority(int32_t p) { sub_.priority = p; }
  TimeMs submitTime() const { return submitTime_; }
  uint32_t attempt() const { return attempt_; }
  AttemptId attemptId() const { return {id_, attempt_}; }
  void startAttempt() { ++attempt_; }
  void recoverAttempt(uint32_t attempt) { attempt_ = attempt; }

  AppState state() const { return state_; }
  void setState(AppState s) { state_ = s; }
  TimeMs finishTime() const { return finishTime_; }
  void setFinishTime(TimeMs t) { finishTime_ = t; }
  TimeMs launchTime() const { return launchTime_; }
  void setLaunchTime(TimeMs t) { launchTime_ = t; }

  AskTable& asks() { return asks_; }
  const AskTable& asks() const { return asks_; }
  // Ascending by id (iterates as std::set<ContainerId> does).
  const ContainerIdMap<uint32_t>& liveContainers() const { return live_; }
  // Where the scheduler keeps a live container's record (its ContainerTable slot); nullptr
  // when c is not a live container of this app.
  const uint32_t* containerSlot(ContainerId c) const { return live_.value(c); }
  const Resource& used() const { return used_; }
  const Resource& amUsed() const { return amUsed_; }
  const Resource& reserved() const { return reserved_; }
  std::optional<ContainerId> amContainer() const { return amContainer_; }
  bool amRunning() const { return amContainer_.has_value(); }
  // The app asks for an AM container (submission().amResource is not zero); otherwise its AM
  // is unmanaged.
  bool managedAm() const { return managedAm_; }
  const Resource& headroom() const { return headroom_; }
  void setHeadroom(const Resource& h) { headroom_ = h; }
  AppAccounting& accounting() { return accounting_; }
  const AppAccounting& accounting() const { return accounting_; }

  ContainerId nextContainerId() { return ContainerId{attemptId(), nextSeq_++}; }
  // The first container sequence number: the RM's epoch << 40, plus 1 (YARN's
  // SchedulerApplicationAttempt containerIdCounter), so ids never repeat across restarts.
  void setFirstContainerSeq(uint64_t seq) { nextSeq_ = seq; }
  // Starts loading the fields a container release touches (a hint for callers about to release
  // several containers of different apps).
  void prefetchHotFields() const {
    // The first three cache lines: the fields declared before asks_ (id .. accounting_'s
    // resource-time and container counters; its preemption counters may fall outside).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(offsetof(Application, accounting_) + offsetof(AppAccounting, numAmPreempted) <=
                  3 * kCacheLineSize);
#pragma GCC diagnostic pop
    const char* p = reinterpret_cast<const char*>(this);
    for (int line = 0; line < 3; ++line) prefetchLine(p + kCacheLineSize * line);
    prefetchQueueName();
  }
  // Starts loading what offering this app a node reads: its first line (AM state) and its
  // asks, then the asks' active keys and cached request (a hint for a scheduler about to try
  // the app).
  void prefetchAsks() const {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(offsetof(Application, amContainer_) + sizeof(amContainer_) <= kCacheLineSize);
#pragma GCC diagnostic pop
    static_assert(sizeof(AskTable) <= 3 * kCacheLineSize);
    prefetchLine(this);
    const char* p = reinterpret_cast<const char*>(&asks_);
    for (int line = 0; line < 3; ++line) prefetchLine(p + kCacheLineSize * line);
    asks_.prefetchActive();
    prefetchQueueName();
  }
  // The queue name every decision record about the app carries (a short name is stored inline).
  void prefetchQueueName() const { prefetchLine(&sub_.queue); }
  // `slot`: where the scheduler keeps the container's record (see containerSlot).
  void addContainer(ContainerId c, const Resource& r, bool isAm, uint32_t slot);
  void removeContainer(ContainerId c, const Resource& r, bool isAm);
  void addReserved(const Resource& r) { reserved_ += r; }
  void removeReserved(const Resource& r) { reserved_ -= r; }

  // Per scheduler key missed scheduling opportunities (delay scheduling).
  int64_t schedulingOpportunities(const SchedulerKey& k) const;
  void addSchedulingOpportunity(const SchedulerKey& k) { ++opportunities_[k]; }
  void setSchedulingOpportunities(const SchedulerKey& k, int64_t n) { opportunities_[k] = n; }

  // Hosts or racks this app must not be placed on (the AM's blacklist).
  const std::set<std::string>& blacklist() const { return blacklist_; }
  void updateBlacklist(const std::vector<std::string>& add, const std::vector<std::string>& remove);

 private:
  // What every allocation and release touches comes first, so that it shares cache lines
  // (10,000 apps do not stay in cache; each line is a miss per container).
  // Then what every scheduling opportunity reads (the asks, the blacklist).
  AppId id_;
  uint32_t attempt_ = 0;
  AppState state_ = AppState::NEW;
  bool managedAm_;  // fixed at submission
  uint64_t nextSeq_ = 1;
  TimeMs submitTime_;
  std::optional<ContainerId> amContainer_;
  ContainerIdMap<uint32_t> live_;  // live containers -> record slots
  Resource used_;
  AppAccounting accounting_;
  AskTable asks_;
  std::set<std::string> blacklist_;
  Resource amUsed_;
  AppSubmission sub_;
  TimeMs launchTime_ = 0;
  TimeMs finishTime_ = 0;
  Resource reserved_;
  Resource headroom_;
  std::map<SchedulerKey, int64_t> opportunities_;
};

}  // namespace spindle
