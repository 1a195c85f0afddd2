// Outcome: what one scheduler event asks the front end to do, as typed values (the Driver's
// result, driver.h). Launch the allocated containers, tell AMs and NMs about completed and
// killed ones, let AMs read a grown preemption message, report accepted, rejected and
// finished apps.
//
//   auto out = driver.heartbeat(node, completed);
//   if (!out) return out.status();                       // bad input: nothing applied
//   for (const ContainerChange& c : out->containers) {
//     if (c.action == ContainerAction::kAllocated) launch(c.id, c.node, c.resource);
//   }
//   for (const AppChange& a : out->apps) if (a.action == AppAction::kRejected) fail(a.reason);
//
// The lists keep the order in which the scheduler made the changes (a simulator that turns
// them into timed events depends on it); within one event every container change precedes the
// app changes it leads to (an app's containers are killed before it finishes).
// An Outcome is reused from event to event (no allocation once warm): read it before the next
// event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/asks.h"
#include "base/ids.h"
#include "resource/resource.h"
#include "scheduler/scheduling_request.h"

namespace spindle {

enum class ContainerAction : uint8_t {
  kAllocated,  // launch it: the AM receives it on its next allocate response
  kCompleted,  // it finished on its node (exitStatus from the node)
  kReleased,   // the AM released it: the node must stop it (NM containersToCleanup)
  kKilled,     // the scheduler killed it (lost node, app finished, attempt failed, preemption)
  kPreemptionMarked,  // marked for preemption: the app's preemption message grew (an AM to wake)
};
const char* toString(ContainerAction a);

struct ContainerChange {
  ContainerAction action = ContainerAction::kAllocated;
  ContainerId id;
  NodeId node;
  Resource resource;
  SchedulerKey key;
  Locality locality = Locality::kOffSwitch;  // kAllocated: the locality it was allocated at
  bool am = false;                           // the attempt's AM container
  int32_t exitStatus = 0;                    // kCompleted, kReleased, kKilled
  AppId app() const { return id.app(); }
};

enum class AppAction : uint8_t {
  kAccepted,  // admitted to a queue (APP_ACCEPTED); its first attempt asks for an AM
  kRejected,  // refused by the scheduler (unknown or stopped queue, ACL, limits): `reason`
  kFinished,  // APP_REMOVED with `finalState` (also when its last attempt failed)
  kMoved,     // moved to the queue `reason` names (an expired reservation's app to the default
              // reservation queue)
};
const char* toString(AppAction a);

struct AppChange {
  AppAction action = AppAction::kAccepted;
  AppId app;
  AppState finalState = AppState::FINISHED;  // kFinished (kRejected: the state it ended in)
  std::string reason;  // kRejected: why (the admission error's message); kMoved: the queue
};

// A reservation queue the plan follower created, resized or removed (QueueAction), with the
// entitlement it has after the step (fractions of its plan queue).
enum class QueueAction : uint8_t { kCreated, kResized, kRemoved };
const char* toString(QueueAction a);

struct QueueChange {
  QueueAction action = QueueAction::kCreated;
  std::string plan;   // the plan queue's full path
  std::string queue;  // the reservation queue's own name
  float capacity = 0;
  float maxCapacity = 0;
};

struct Outcome {
  std::vector<ContainerChange> containers;
  std::vector<AppChange> apps;
  // Apps whose preemption message (Scheduler::preemptionMessage) grew, each once, in the
  // order of their first mark: their AMs must read it on their next allocate call.
  std::vector<AppId> preemptionMessageGrew;
  // A MonitorTick ran in this event (Driver::monitorTick).
  bool monitorRan = false;
  // SchedulingRequests rejected in this event, for their AMs' next allocate response
  // (AllocateResponse.rejectedSchedulingRequests), in the order they were rejected.
  std::vector<RejectedSchedulingRequest> rejectedSchedulingRequests;
  // The plan follower ran in this event (Driver::monitorTick with a reservation system): the
  // reservation queues it changed, and the reservations the replanner deleted.
  bool planFollowerRan = false;
  std::vector<QueueChange> queues;
  std::vector<std::string> reservationsReplanned;
  // The reservations the plans archived (past their sharing policy's window).
  std::vector<std::string> reservationsArchived;

  bool empty() const {
    return containers.empty() && apps.empty() && !monitorRan &&
           rejectedSchedulingRequests.empty() && !planFollowerRan;
  }
  void clear() {
    containers.clear();
    apps.clear();
    rejectedSchedulingRequests.clear();
    preemptionMessageGrew.clear();
    monitorRan = false;
    if (planFollowerRan) {
      planFollowerRan = false;
      queues.clear();
      reservationsReplanned.clear();
      reservationsArchived.clear();
    }
  }
  // The app accepted or rejected by this event (a submission), if any.
  const AppChange* admission() const {
    for (const AppChange& a : apps) {
      if (a.action == AppAction::kAccepted || a.action == AppAction::kRejected) return &a;
    }
    return nullptr;
  }
};

}  // namespace spindle
