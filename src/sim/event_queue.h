// The replay engine's timed events: a binary min-heap keyed by (time, type, a, b). Events at the
// same simulated millisecond run in an order that depends only on what they are (injected
// actions, then submissions, AM heartbeats by job, task ends, metric samples), never on when
// they were pushed, so the engine may leave out a heartbeat that would do nothing and push it
// again later without changing the order of anything else.
//
//   EventQueue q;
//   q.push(1000, EventType::kAmHeartbeat, jobIndex);
//   while (!q.empty() && q.top().time <= until) { SimEvent e = q.pop(); ... }
//
// Node-manager heartbeats are not in here (see heartbeat_sweep.h): at 10,000 nodes they would be
// 99% of all events. Events are 24 bytes; payloads are indexes, never strings.
#pragma once

#include <cstdint>
#include <queue>
#include <tuple>
#include <vector>

#include "base/clock.h"

namespace spindle::sim {

enum class EventType : uint8_t {
  kAction,       // a = index of an injected action (Engine::scheduleAction)
  kSubmit,       // a = job index
  kAmHeartbeat,  // a = job index (a heartbeat that is no longer the AM's next one is dropped)
  kTaskEnd,      // a = app id, b = packed container id: the task's duration ended
  kMonitor,      // MonitorTick every Scheduler::monitorIntervalMs (preemption, fair update)
  kSample,       // metrics record tick
  kReserve,      // a = job index: the job submits its reservation (reservation system on)
};

struct SimEvent {
  TimeMs time = 0;
  EventType type = EventType::kSubmit;
  uint32_t a = 0;
  uint64_t b = 0;
  auto key() const { return std::tie(time, type, a, b); }
};

class EventQueue {
 public:
  void push(TimeMs time, EventType type, uint32_t a, uint64_t b = 0) {
    heap_.push(SimEvent{time, type, a, b});
    if (isWork(type)) ++work_;
  }
  // Only metric samples and AM heartbeats are left (whether an AM heartbeat can change anything
  // is the engine's to judge).
  bool noWorkLeft() const { return work_ == 0; }
  bool empty() const { return heap_.empty(); }
  const SimEvent& top() const { return heap_.top(); }
  SimEvent pop() {
    SimEvent e = heap_.top();
    heap_.pop();
    if (isWork(e.type)) --work_;
    return e;
  }
  size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const SimEvent& x, const SimEvent& y) const { return x.key() > y.key(); }
  };
  std::priority_queue<SimEvent, std::vector<SimEvent>, Later> heap_;
  static bool isWork(EventType t) {
    return t != EventType::kSample && t != EventType::kMonitor && t != EventType::kAmHeartbeat;
  }
  size_t work_ = 0;  // submissions, task ends and actions in the heap
};

}  // namespace spindle::sim
