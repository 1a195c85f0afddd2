// The decision records behind the RM's activities endpoints (YARN's ActivitiesManager):
// the last allocations, reservations, skips and rejections per live app and the most recent
// ones per node, kept as values the REST views render (rm_activities.cc).
//
//   ActivitiesRecorder rec;
//   driver.setDecisionSink(&rec);
//   ... heartbeats ...
//   for (const ActivityEntry& e : rec.forApp(app)) ...   // newest last
//
// Only what an activity shows is kept: a skip's, reservation's or rejection's reason is rendered
// when recorded (the scheduler records a repeated skip once), an allocation's is not (its
// diagnostic is built from its fields). An app's entries go when it finishes. Single-threaded:
// the scheduler thread records and reads.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

#include "base/ring.h"
#include "scheduler/decision.h"

namespace spindle::rm {

struct ActivityEntry {
  DecisionKind kind = DecisionKind::kSkip;
  TimeMs time = 0;
  AppId app;
  ContainerId container;
  NodeId node;
  std::string queue;
  SchedulerKey key;
  Resource resource;
  bool am = false;
  SkipReason skip = SkipReason::kNone;
  RejectionReason rejection = RejectionReason::kCouldNotPlaceOnNode;
  std::string reason;
};

class ActivitiesRecorder final : public DecisionSink {
 public:
  static constexpr size_t kPerApp = 50;   // entries kept per live app
  static constexpr size_t kRecent = 500;  // node-bound entries kept for the node view

  void record(const DecisionRecord& d) override;
  // The app's entries, oldest first (empty for an unknown or finished app).
  const Ring<ActivityEntry>& forApp(AppId app) const;
  // The latest node-bound entries of every app, oldest first.
  const Ring<ActivityEntry>& recent() const { return recent_; }

 private:
  // Rings: a record overwrites the oldest entry in place once full (its strings keep their room).
  std::unordered_map<AppId, Ring<ActivityEntry>> byApp_;
  Ring<ActivityEntry> recent_{kRecent};
};

}  // namespace spindle::rm
