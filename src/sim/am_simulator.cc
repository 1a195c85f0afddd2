#include "sim/am_simulator.h"

#include <algorithm>

#include "app/container_state.h"

namespace spindle::sim {

namespace {
const std::string kAny(kAnyResourceName);
}  // namespace

const char* toString(AmKind k) {
  switch (k) {
    case AmKind::kMapReduce: return "mapreduce";
    case AmKind::kStream: return "stream";
    case AmKind::kDag: return "dag";
  }
  return "?";
}

Result<AmKind> amKindFor(const std::string& amType, const SlsSettings& sls) {
  auto byName = [](std::string_view s) -> std::optional<AmKind> {
    if (s == "mapreduce" || s.ends_with("MRAMSimulator")) return AmKind::kMapReduce;
    if (s == "stream" || s.ends_with("StreamAMSimulator")) return AmKind::kStream;
    if (s == "dag" || s.ends_with("DAGAMSimulator")) return AmKind::kDag;
    return std::nullopt;
  };
  // A registered yarn.sls.am.type.<name> wins over the built-in names (SLS looks names up there).
  if (auto it = sls.amTypes.find(amType); it != sls.amTypes.end()) {
    if (auto k = byName(it->second)) return *k;
    return invalidArgument(
        "am.type '{}' is registered as '{}', which is not an AM simulator "
        "Spindle has (MRAMSimulator, StreamAMSimulator, DAGAMSimulator)",
        amType, it->second);
  }
  if (auto k = byName(amType)) return *k;
  return invalidArgument("unknown am.type '{}'; known: mapreduce, stream, dag", amType);
}

AmSimulator::AmSimulator(const TraceJob& job, AmKind kind, bool workPreserving,
                         const PlacementAsks* placement)
    : job_(job), kind_(kind), workPreserving_(workPreserving), placement_(placement) {
  tasks_.resize(job.tasks.size());
  buildGroups();
  for (const TraceTask& t : job.tasks) maps_ += t.type == TaskType::kMap ? 1 : 0;
  if (kind_ == AmKind::kDag) {
    dagOrder_.resize(tasks_.size());
    for (uint32_t i = 0; i < dagOrder_.size(); ++i) dagOrder_[i] = i;
    std::stable_sort(dagOrder_.begin(), dagOrder_.end(), [&](uint32_t a, uint32_t b) {
      return job_.tasks[a].requestDelayMs < job_.tasks[b].requestDelayMs;
    });
  }
}

void AmSimulator::buildGroups() {
  struct Shape {
    int32_t priority;
    int64_t allocationId;
    Resource resource;
    const std::vector<std::string>* tags;
    const std::string* spec;
    bool operator==(const Shape& o) const {
      return priority == o.priority && allocationId == o.allocationId && resource == o.resource &&
             *tags == *o.tags && *spec == *o.spec;
    }
  };
  std::vector<Shape> shapes;
  std::map<int32_t, int64_t> perPriority;
  for (size_t i = 0; i < job_.tasks.size(); ++i) {
    const TraceTask& t = job_.tasks[i];
    Shape s{t.priority, t.allocationId, t.resource, &t.allocationTags, &t.placementSpec};
    auto it = std::find(shapes.begin(), shapes.end(), s);
    if (it == shapes.end()) {
      shapes.push_back(s);
      Group g;
      g.key = SchedulerKey{t.priority, perPriority[t.priority]++};
      g.resource = t.resource;
      if (t.usesPlacement() && placement_ != nullptr) {
        g.scheduling = true;
        g.tags = t.allocationTags;
        if (!t.placementSpec.empty()) {
          auto c = placement_->constraints.find(t.placementSpec);
          if (c != placement_->constraints.end()) g.constraint = &c->second;
        }
      }
      groups_.push_back(std::move(g));
      it = shapes.end() - 1;
    }
    tasks_[i].group = static_cast<uint32_t>(it - shapes.begin());
  }
}

const std::vector<std::string>* AmSimulator::tagsOf(const SchedulerKey& key) const {
  for (const Group& g : groups_) {
    if (g.key == key) return g.tags.empty() ? nullptr : &g.tags;
  }
  return nullptr;
}

AmSimulator::Group* AmSimulator::groupFor(const SchedulerKey& key) {
  for (Group& g : groups_) {
    if (g.key == key) return &g;
  }
  return nullptr;
}

void AmSimulator::changeWant(Group& g, const std::string& name, int32_t delta) {
  if (name.empty()) return;
  g.want[name] += delta;
  g.dirty.push_back(name);
}

namespace {

// Calls host(name) for the task's preferred hosts and rack(name) once per distinct rack of
// them (RMContainerRequestor asks each host, then each distinct rack, then ANY).
template <typename HostFn, typename RackFn>
void forEachLocation(const TraceTask& tt, HostFn host, RackFn rack) {
  if (!tt.host.empty()) host(tt.host);
  for (const TraceHost& h : tt.otherHosts) {
    if (!h.host.empty()) host(h.host);
  }
  if (!tt.rack.empty()) rack(tt.rack);
  for (size_t i = 0; i < tt.otherHosts.size(); ++i) {
    const std::string& r = tt.otherHosts[i].rack;
    if (r.empty() || r == tt.rack) continue;
    bool seen = false;
    for (size_t k = 0; k < i && !seen; ++k) seen = tt.otherHosts[k].rack == r;
    if (!seen) rack(r);
  }
}

}  // namespace

void AmSimulator::ask(uint32_t task) {
  Task& t = tasks_[task];
  Group& g = groups_[t.group];
  const TraceTask& tt = job_.tasks[task];
  t.state = TaskState::kWaiting;
  changeWant(g, kAny, 1);
  g.any.push_back(task);
  if (g.scheduling) return;  // a SchedulingRequest has no host or rack preference
  forEachLocation(
      tt,
      [&](const std::string& host) {
        changeWant(g, host, 1);
        g.byHost[host].push_back(task);
      },
      [&](const std::string& rack) {
        changeWant(g, rack, 1);
        g.byRack[rack].push_back(task);
      });
}

bool AmSimulator::take(Group& g, uint32_t task) {
  if (tasks_[task].state != TaskState::kWaiting) return false;
  const TraceTask& tt = job_.tasks[task];
  changeWant(g, kAny, -1);
  if (!g.scheduling) {
    auto drop = [&](const std::string& name) { changeWant(g, name, -1); };
    forEachLocation(tt, drop, drop);
  }
  tasks_[task].state = TaskState::kRunning;
  return true;
}

// A waiting task for the container: one that wanted its host, else its rack, else any. The
// lists hold tasks lazily (a task taken through another list stays until popped).
int64_t AmSimulator::pickTask(Group& g, const InboxItem& c) {
  auto popFrom = [&](std::vector<uint32_t>& list) -> int64_t {
    while (!list.empty()) {
      uint32_t t = list.back();
      list.pop_back();
      if (take(g, t)) return t;
    }
    return -1;
  };
  int64_t t = -1;
  if (auto it = g.byHost.find(c.host); it != g.byHost.end()) t = popFrom(it->second);
  if (t < 0) {
    if (auto it = g.byRack.find(c.rack); it != g.byRack.end()) t = popFrom(it->second);
  }
  if (t < 0) t = popFrom(g.any);
  return t;
}

// AppSchedulingInfo's decrement of the ask table on this allocation (asks.h rule 2).
void AmSimulator::mirrorSchedulerDecrement(Group& g, const InboxItem& c) {
  auto dec = [&](const std::string& name) {
    auto it = g.sent.find(name);
    if (it != g.sent.end() && it->second > 0) --it->second;
    g.dirty.push_back(name);
  };
  dec(kAny);
  if (g.scheduling) return;
  if (c.locality != Locality::kOffSwitch) dec(c.rack);
  if (c.locality == Locality::kNodeLocal) dec(c.host);
}

std::optional<TimeMs> AmSimulator::dueTime() const {
  if (!amContainer_ || amLost_) return std::nullopt;
  std::optional<TimeMs> due;
  if (kind_ == AmKind::kDag && dagNext_ < dagOrder_.size()) {
    due = amStartMs_ + job_.tasks[dagOrder_[dagNext_]].requestDelayMs;
  }
  if (kind_ == AmKind::kStream && job_.endMs) due = due ? std::min(*due, *job_.endMs) : *job_.endMs;
  return due;
}

void AmSimulator::notifyAllocated(const AllocatedContainer& c) {
  inbox_.push_back(InboxItem{true, c.id, c.node, std::string(c.host), std::string(c.rack),
                             c.locality, c.key, c.am, 0, 0, 0});
}

void AmSimulator::notifyCompleted(ContainerId id, int32_t exitStatus, TimeMs at) {
  inbox_.push_back(
      InboxItem{false, id, NodeId(), {}, {}, Locality::kOffSwitch, {}, false, exitStatus, at, 0});
}

void AmSimulator::notifyRejected(const SchedulerKey& key, int32_t count) {
  if (count <= 0) return;
  inbox_.push_back(InboxItem{
      false, ContainerId(), NodeId(), {}, {}, Locality::kOffSwitch, key, false, 0, 0, count});
}

void AmSimulator::onRejected(const SchedulerKey& key, int32_t count) {
  Group* g = groupFor(key);
  if (g == nullptr) return;
  for (int32_t i = 0; i < count && !g->any.empty();) {
    const uint32_t task = g->any.back();
    g->any.pop_back();
    if (tasks_[task].state != TaskState::kWaiting) continue;  // lazily kept (pickTask)
    tasks_[task].state = TaskState::kDone;
    ++done_;
    ++rejected_;
    if (job_.tasks[task].type == TaskType::kMap) ++mapsDone_;
    changeWant(*g, kAny, -1);
    if (auto s = g->sent.find(kAny); s != g->sent.end() && s->second > 0) --s->second;
    ++i;
  }
}

void AmSimulator::onAllocated(const InboxItem& c, TimeMs now, AmActions& out) {
  if (c.am) {
    amContainer_ = c.id;
    amStartMs_ = -1;  // set by heartbeat()
    out.amStarted = true;
    return;
  }
  if (!amContainer_ || c.id.attempt.attempt != amContainer_->attempt.attempt) return;
  Group* g = groupFor(c.key);
  if (g == nullptr) {
    out.releases.push_back(c.id);
    return;
  }
  mirrorSchedulerDecrement(*g, c);
  const int64_t task = pickTask(*g, c);
  if (task < 0) {  // more than asked for (cannot happen while the mirror holds): give it back
    out.releases.push_back(c.id);
    return;
  }
  running_[c.id] = static_cast<uint32_t>(task);
  Task& t = tasks_[task];
  t.startMs = now;
  out.starts.push_back(TaskStart{c.id, c.node, job_.tasks[task].durationMs - t.checkpointMs});
}

// MapReduce's checkpoint of a preempted task (CheckpointAMPreemptionPolicy): the time the run
// lasted is kept; at least 1 ms stays to do, so the rerun still takes a container and ends.
void AmSimulator::checkpoint(uint32_t task, TimeMs stoppedAt) {
  if (!workPreserving_) return;
  Task& t = tasks_[task];
  const int64_t duration = job_.tasks[task].durationMs;
  const int64_t ran = std::max<int64_t>(0, stoppedAt - t.startMs);
  t.checkpointMs = std::min(t.checkpointMs + ran, std::max<int64_t>(0, duration - 1));
}

void AmSimulator::taskFinished(uint32_t task, TimeMs now) {
  tasks_[task].checkpointMs = 0;  // a stream's next run is a whole one
  // StreamAMSimulator runs a stream again when it ends before the job's end time.
  if (kind_ == AmKind::kStream && job_.endMs && now < *job_.endMs) {
    ask(task);
    return;
  }
  tasks_[task].state = TaskState::kDone;
  ++done_;
  if (job_.tasks[task].type == TaskType::kMap) ++mapsDone_;
}

void AmSimulator::requeue(uint32_t task) { ask(task); }

void AmSimulator::onCompleted(const InboxItem& c, TimeMs now) {
  if (amContainer_ && c.id == *amContainer_) {
    amLost_ = true;
    return;
  }
  auto it = running_.find(c.id);
  if (it == running_.end()) return;  // an earlier attempt's container, or one we released
  const uint32_t task = it->second;
  running_.erase(it);
  if (c.exitStatus == ContainerExitStatus::SUCCESS) {
    taskFinished(task, now);
  } else {
    // Killed or preempted: ask again (MRAMSimulator's pendingFailed lists). Only a preemption
    // kill is checkpointed; any other loss keeps just the earlier checkpoints.
    if (c.exitStatus == ContainerExitStatus::PREEMPTED) checkpoint(task, c.at);
    requeue(task);
  }
}

void AmSimulator::releaseWork(TimeMs now) {
  if (!firstWorkReleased_) {
    firstWorkReleased_ = true;
    for (uint32_t i = 0; i < tasks_.size(); ++i) {
      if (kind_ == AmKind::kStream ||
          (kind_ == AmKind::kMapReduce && job_.tasks[i].type == TaskType::kMap)) {
        ask(i);
      }
    }
  }
  if (kind_ == AmKind::kMapReduce && !reducesAsked_ && mapsDone_ == maps_) {
    reducesAsked_ = true;
    for (uint32_t i = 0; i < tasks_.size(); ++i) {
      if (job_.tasks[i].type == TaskType::kReduce) ask(i);
    }
  }
  if (kind_ == AmKind::kDag) {
    while (dagNext_ < dagOrder_.size() &&
           amStartMs_ + job_.tasks[dagOrder_[dagNext_]].requestDelayMs <= now) {
      ask(dagOrder_[dagNext_++]);
    }
  }
}

bool AmSimulator::allDone(TimeMs now) const {
  if (kind_ == AmKind::kStream && job_.endMs && now >= *job_.endMs) return true;
  return done_ == numTasks();
}

void AmSimulator::emitSchedulingRequest(Group& g, AmActions& out) {
  g.dirty.clear();
  auto w = g.want.find(kAny);
  const int32_t want = w == g.want.end() ? 0 : w->second;
  int32_t& sent = g.sent[kAny];
  const bool absolute = placement_->absoluteCounts;
  if (absolute ? want != sent : want > sent) {
    SchedulingRequest r;
    r.allocationRequestId = g.key.allocationRequestId;
    r.priority = g.key.priority;
    r.allocationTags = g.tags;
    r.sizing = ResourceSizing{absolute ? want : want - sent, g.resource};
    if (g.constraint != nullptr) r.constraint = *g.constraint;
    out.schedulingRequests.push_back(std::move(r));
  }
  sent = want;
}

void AmSimulator::emitAsks(AmActions& out) {
  for (Group& g : groups_) {
    if (g.dirty.empty()) continue;
    if (g.scheduling) {
      emitSchedulingRequest(g, out);
      continue;
    }
    std::sort(g.dirty.begin(), g.dirty.end());
    g.dirty.erase(std::unique(g.dirty.begin(), g.dirty.end()), g.dirty.end());
    for (const std::string& name : g.dirty) {
      auto w = g.want.find(name);
      const int32_t want = w == g.want.end() ? 0 : w->second;
      auto s = g.sent.find(name);
      const int32_t sent = s == g.sent.end() ? 0 : s->second;
      if (want != sent) {
        out.asks.push_back(
            ResourceRequest{g.key, name, g.resource, want, true, job_.labelExpression});
      }
      if (want == 0) {
        if (w != g.want.end()) g.want.erase(w);
        if (s != g.sent.end()) g.sent.erase(s);
      } else {
        g.sent[name] = want;
      }
    }
    g.dirty.clear();
  }
}

AmActions AmSimulator::heartbeat(TimeMs now, const PreemptionMessage& preemption,
                                 bool honourPreemption) {
  AmActions out;
  std::vector<InboxItem> inbox;
  inbox.swap(inbox_);
  for (const InboxItem& c : inbox) {
    if (c.rejected > 0) {
      onRejected(c.key, c.rejected);
    } else if (c.allocated) {
      onAllocated(c, now, out);
    } else {
      onCompleted(c, now);
    }
  }
  if (out.amStarted) amStartMs_ = now;
  if (amLost_) {
    out = AmActions{};
    out.restart = true;
    return out;
  }
  if (!amContainer_) return out;
  if (honourPreemption) {
    for (const auto* list : {&preemption.containers, &preemption.negotiable}) {
      for (ContainerId id : *list) {
        auto it = running_.find(id);
        if (it == running_.end()) continue;
        out.releases.push_back(id);
        out.givenBack.push_back(id);
        checkpoint(it->second, now);
        requeue(it->second);
        running_.erase(it);
      }
    }
  }
  releaseWork(now);
  if (allDone(now)) {
    out.finished = true;
    out.releases.push_back(*amContainer_);
    return out;
  }
  emitAsks(out);
  return out;
}

void AmSimulator::resetForNewAttempt() {
  for (Task& t : tasks_) t = Task{t.group, TaskState::kNotAsked, 0, 0};
  groups_.clear();
  buildGroups();
  inbox_.clear();
  running_.clear();
  amContainer_.reset();
  amLost_ = false;
  amStartMs_ = -1;
  firstWorkReleased_ = false;
  reducesAsked_ = false;
  mapsDone_ = 0;
  done_ = 0;
  dagNext_ = 0;
  ++restarts_;
}

}  // namespace spindle::sim
