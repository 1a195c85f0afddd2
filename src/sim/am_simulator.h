// Simulated application masters (SLS's MRAMSimulator, StreamAMSimulator, DAGAMSimulator): what
// one AM asks for, which task runs in which container, when the job is done.
//
//   AmSimulator am(job, AmKind::kMapReduce);
//   am.notifyAllocated({id, node, "host1", "/rack1", Locality::kNodeLocal, key, false});
//   AmActions act = am.heartbeat(now, sched.preemptionMessage(app), true);
//   sched.handle(AppAllocate{app, act.asks, act.releases});   // what YARN's allocate() sends
//
// The engine (engine.h) delivers allocations and completions into the AM's inbox as the
// scheduler makes them; the AM only looks at its inbox on its own heartbeat, as a real AM sees
// new containers only in its next allocate response. Algorithm of heartbeat():
//  1. Drain the inbox in order: the AM container starts the AM; a task container is given to a
//     waiting task (same host, else same rack, else any) and the task starts now (its duration
//     runs from here); a completion ends a task (SUCCESS) or puts it back to waiting (killed or
//     preempted: re-requested). The AM container lost -> `restart` (a new attempt, all tasks
//     again, as MRAMSimulator.restart()).
//  2. Honour the scheduler's preemption message by releasing the named task containers.
//  3. Release work by kind: mapreduce asks for every map (priority 20) on its first beat and for
//     the reduces (priority 10) only once every map has finished (no slow start); stream asks for
//     everything at once and re-asks a finished stream until the job's end time; dag asks each
//     task container.request.delay ms after the AM started.
//  4. When every task is done (stream: the end time passed) -> `finished`.
//  5. Send asks as YARN's AM-RM protocol wants them: absolute counts per (key, resource name)
//     for the names whose count changed, mirroring the scheduler's own decrements (node-local
//     takes host, rack and ANY; rack-local rack and ANY; off-switch ANY), so both sides agree.
// Asks are grouped by (priority, trace allocation id, resource, allocation tags, placement spec):
// each group is one scheduler key (allocationRequestId = the group's ordinal among groups of the
// same priority).
// Placement (tasks with allocation tags or a placement spec, `placement` given): such a group is
// asked for with one SchedulingRequest at its key instead of ResourceRequests, without host or
// rack preference. Under the scheduler handler it carries the absolute number of waiting tasks
// (SingleConstraintAppPlacementAllocator keeps one request per key and takes updates of
// numAllocations); under the placement processor only the tasks not asked for yet (each request
// the processor receives is placed or rejected on its own). A rejected request (notifyRejected)
// gives its tasks up: they count as done without running, as an AM that does not retry.
// Work-preserving preemption (`workPreserving`, spindle.sls.am.preemption.work-preserving):
// a task that loses its container to preemption -- given back in step 2, or completed with exit
// status PREEMPTED -- keeps the time it ran as a checkpoint, and its next run lasts only the
// rest of its trace duration (at least 1 ms), as MapReduce's CheckpointAMPreemptionPolicy
// (MAPREDUCE-4584) checkpoints a preempted task instead of losing it. Any other loss (node
// lost, a kill) loses only the work since the task's last start; a new attempt starts every
// task from zero. Off (the default, SLS's MRAMSimulator), every rerun is the full duration.
// Not thread-safe; one per job attempt chain.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/asks.h"
#include "base/clock.h"
#include "base/ids.h"
#include "base/status.h"
#include "placement/constraint.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_request.h"
#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle::sim {

enum class AmKind { kMapReduce, kStream, kDag };
const char* toString(AmKind k);  // "mapreduce", "stream", "dag"
// am.type -> kind: the three built-in names, or a yarn.sls.am.type.<name> entry whose class is
// one of SLS's simulators (MRAMSimulator, StreamAMSimulator, DAGAMSimulator) or a built-in name.
Result<AmKind> amKindFor(const std::string& amType, const SlsSettings& sls);

// How the AM asks for tagged tasks: the parsed constraint of every placement spec text in the
// trace, and the handler's counting rule (see the header comment).
struct PlacementAsks {
  std::map<std::string, placement::PlacementConstraint, std::less<>> constraints;
  bool absoluteCounts = true;  // the scheduler handler; false: the placement processor
};

struct AllocatedContainer {
  ContainerId id;
  NodeId node;
  std::string_view host;  // valid during notifyAllocated only
  std::string_view rack;
  Locality locality = Locality::kOffSwitch;
  SchedulerKey key;
  bool am = false;
};

struct TaskStart {
  ContainerId container;
  NodeId node;
  int64_t durationMs = 0;
};

struct AmActions {
  std::vector<ResourceRequest> asks;
  std::vector<SchedulingRequest> schedulingRequests;
  std::vector<ContainerId> releases;
  std::vector<ContainerId> givenBack;  // of releases: running tasks given back for preemption
  std::vector<TaskStart> starts;       // task containers received this beat: they run from now
  bool amStarted = false;              // the AM container was received this beat
  bool restart = false;                // the AM container was lost: start a new attempt
  bool finished = false;               // all work done: release the AM and unregister
};

class AmSimulator {
 public:
  // `workPreserving`: preempted tasks resume where they stopped (see the header comment).
  // `placement` (outliving the AM): required when the job has tagged tasks.
  AmSimulator(const TraceJob& job, AmKind kind, bool workPreserving = false,
              const PlacementAsks* placement = nullptr);

  AmKind kind() const { return kind_; }
  bool amRunning() const { return amContainer_.has_value(); }
  std::optional<ContainerId> amContainer() const { return amContainer_; }
  int tasksDone() const { return done_; }
  int numTasks() const { return static_cast<int>(tasks_.size()); }
  int64_t restarts() const { return restarts_; }
  int64_t rejectedTasks() const { return rejected_; }
  // The allocation tags of the task group at `key`; nullptr when it has none.
  const std::vector<std::string>* tagsOf(const SchedulerKey& key) const;

  // The earliest time at which a heartbeat has work that no notification will bring: a DAG
  // task's request delay running out, a stream job's end time; nullopt when there is none.
  // With an empty inbox and no preemption message, a heartbeat before then does nothing.
  std::optional<TimeMs> dueTime() const;
  bool inboxEmpty() const { return inbox_.empty(); }

  void notifyAllocated(const AllocatedContainer& c);
  // The container ended at `at` (what the task ran until; the AM sees it on its next beat).
  void notifyCompleted(ContainerId id, int32_t exitStatus, TimeMs at);
  // `count` allocations of the SchedulingRequest at `key` were rejected: on the next heartbeat
  // (the allocate response that returns them) that many waiting tasks of its group are given up.
  void notifyRejected(const SchedulerKey& key, int32_t count);
  AmActions heartbeat(TimeMs now, const PreemptionMessage& preemption, bool honourPreemption);
  // After the engine started a new attempt: every task is to be done again.
  void resetForNewAttempt();

 private:
  enum class TaskState : uint8_t { kNotAsked, kWaiting, kRunning, kDone };
  struct Task {
    uint32_t group = 0;
    TaskState state = TaskState::kNotAsked;
    TimeMs startMs = 0;        // when its current run started (kRunning)
    int64_t checkpointMs = 0;  // work kept from runs ended by preemption (work-preserving)
  };
  struct Group {
    SchedulerKey key;
    Resource resource;
    std::unordered_map<std::string, int32_t> want;  // waiting tasks per name ("*" = all)
    std::unordered_map<std::string, int32_t> sent;  // the scheduler's count, mirrored
    std::vector<std::string> dirty;
    std::unordered_map<std::string, std::vector<uint32_t>> byHost, byRack;
    std::vector<uint32_t> any;
    bool scheduling = false;  // asked with a SchedulingRequest (tags or a constraint)
    std::vector<std::string> tags;
    const placement::PlacementConstraint* constraint = nullptr;
  };
  struct InboxItem {
    bool allocated;
    ContainerId id;
    NodeId node;
    std::string host, rack;
    Locality locality;
    SchedulerKey key;
    bool am;
    int32_t exitStatus;
    TimeMs at;             // completions: when the container ended
    int32_t rejected = 0;  // > 0: a rejection of that many allocations at `key`
  };

  void buildGroups();
  void ask(uint32_t task);
  void changeWant(Group& g, const std::string& name, int32_t delta);
  void mirrorSchedulerDecrement(Group& g, const InboxItem& c);
  bool take(Group& g, uint32_t task);
  int64_t pickTask(Group& g, const InboxItem& c);
  void onAllocated(const InboxItem& c, TimeMs now, AmActions& out);
  void onCompleted(const InboxItem& c, TimeMs now);
  void onRejected(const SchedulerKey& key, int32_t count);
  void checkpoint(uint32_t task, TimeMs stoppedAt);
  void taskFinished(uint32_t task, TimeMs now);
  void requeue(uint32_t task);
  void releaseWork(TimeMs now);
  void emitAsks(AmActions& out);
  void emitSchedulingRequest(Group& g, AmActions& out);
  bool allDone(TimeMs now) const;
  Group* groupFor(const SchedulerKey& key);

  const TraceJob& job_;
  AmKind kind_;
  bool workPreserving_;
  const PlacementAsks* placement_;
  std::vector<Task> tasks_;
  std::vector<Group> groups_;
  std::vector<InboxItem> inbox_;
  std::unordered_map<ContainerId, uint32_t> running_;  // task container -> task
  std::optional<ContainerId> amContainer_;
  bool amLost_ = false;
  TimeMs amStartMs_ = -1;
  bool firstWorkReleased_ = false;
  bool reducesAsked_ = false;
  int maps_ = 0, mapsDone_ = 0, done_ = 0;
  std::vector<uint32_t> dagOrder_;  // tasks by request delay
  size_t dagNext_ = 0;
  int64_t restarts_ = 0;
  int64_t rejected_ = 0;  // tasks given up after a rejection
};

}  // namespace spindle::sim
