// Fluent builders for replay tests (STYLE rule 14): a test reads as the workload it runs.
//
//   Trace t = TraceBuilder().nodes(2).job(JobBuilder("j1").maps(3, 5000).reduces(1, 2000)).build();
#pragma once

#include <string>
#include <utility>

#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle::sim::testing {

inline SlsSettings testSls() {
  SlsSettings s;
  s.nodeResource = Resource::of(10240, 10);
  s.amResource = Resource::of(1024, 1);
  s.containerResource = Resource::of(1024, 1);
  return s;
}

class JobBuilder {
 public:
  explicit JobBuilder(std::string id) {
    job_.id = std::move(id);
    job_.queue = "default";
    job_.amResource = Resource::of(1024, 1);
  }
  JobBuilder& at(int64_t ms) {
    job_.startMs = ms;
    return *this;
  }
  JobBuilder& queue(std::string q) {
    job_.queue = std::move(q);
    return *this;
  }
  JobBuilder& end(int64_t ms) {
    job_.endMs = ms;
    return *this;
  }
  // The job reserves ahead of its start to finish by `ms` (the reservation system).
  JobBuilder& deadline(int64_t ms) {
    job_.wantsReservation = true;
    job_.deadlineMs = ms;
    return *this;
  }
  JobBuilder& type(std::string t) {
    job_.amType = std::move(t);
    return *this;
  }
  JobBuilder& task(TaskType type, int64_t durationMs, std::string host = "", int64_t delay = 0,
                   int64_t mb = 1024) {
    TraceTask t;
    t.type = type;
    t.priority = type == TaskType::kMap ? 20 : 10;
    t.durationMs = durationMs;
    t.requestDelayMs = delay;
    t.resource = Resource::of(mb, 1);
    if (!host.empty()) {
      t.host = host;
      t.rack = "/default-rack";
    }
    job_.tasks.push_back(std::move(t));
    return *this;
  }
  JobBuilder& maps(int n, int64_t durationMs) {
    for (int i = 0; i < n; ++i) task(TaskType::kMap, durationMs);
    return *this;
  }
  JobBuilder& reduces(int n, int64_t durationMs) {
    for (int i = 0; i < n; ++i) task(TaskType::kReduce, durationMs);
    return *this;
  }
  TraceJob build() const { return job_; }

 private:
  TraceJob job_;
};

class TraceBuilder {
 public:
  TraceBuilder& nodes(int n, int64_t mb = 10240) {
    for (int i = 0; i < n; ++i) {
      trace_.nodes.push_back(TraceNode{"node" + std::to_string(trace_.nodes.size() + 1),
                                       "/default-rack",
                                       Resource::of(mb, 10),
                                       {}});
    }
    return *this;
  }
  TraceBuilder& job(const JobBuilder& j) {
    trace_.jobs.push_back(j.build());
    return *this;
  }
  Trace build() const { return trace_; }

 private:
  Trace trace_;
};

}  // namespace spindle::sim::testing
