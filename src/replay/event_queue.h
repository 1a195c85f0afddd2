// The replay engine's timed events: a binary min-heap keyed by (time, sequence), so events at
// the same simulated millisecond run in the order they were scheduled.
//
//   EventQueue q;
//   q.push(1000, EventType::kAmHeartbeat, jobIndex);
//   while (!q.empty() && q.top().time <= until) { SimEvent e = q.pop(); ... }
//
// Node-manager heartbeats are not in here (see heartbeat_sweep.h): at 10,000 nodes they would be
// 99% of all events. Events are 32 bytes; payloads are indexes, never strings.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "base/clock.h"

namespace spindle::replay {

enum class EventType : uint8_t {
  kSubmit,       // a = job index
  kAmHeartbeat,  // a = job index, b = AM incarnation (stale heartbeats of a finished AM drop)
  kTaskEnd,      // a = job index, b = container slot (see Engine); the task's duration ended
  kSample,       // metrics record tick
  kAction,       // a = index of an injected action (Engine::scheduleAction)
};

struct SimEvent {
  TimeMs time = 0;
  uint64_t seq = 0;
  EventType type = EventType::kSubmit;
  uint32_t a = 0;
  uint64_t b = 0;
};

class EventQueue {
 public:
  void push(TimeMs time, EventType type, uint32_t a, uint64_t b = 0) {
    heap_.push(SimEvent{time, nextSeq_++, type, a, b});
  }
  bool empty() const { return heap_.empty(); }
  const SimEvent& top() const { return heap_.top(); }
  SimEvent pop() {
    SimEvent e = heap_.top();
    heap_.pop();
    return e;
  }
  size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const SimEvent& x, const SimEvent& y) const {
      return x.time != y.time ? x.time > y.time : x.seq > y.seq;
    }
  };
  std::priority_queue<SimEvent, std::vector<SimEvent>, Later> heap_;
  uint64_t nextSeq_ = 0;
};

}  // namespace spindle::replay
