#include "sim/engine.h"

#include <algorithm>
#include <cmath>

#include "app/container_state.h"
#include "placement/spec_parser.h"

namespace spindle::sim {

namespace {

constexpr TimeMs kNever = std::numeric_limits<TimeMs>::max();

// t + d for d >= 0, saturating at kNever: readers bound trace times (kMaxTraceTimeMs) and
// settings bound intervals, so this only guards against a time that would wrap around.
TimeMs later(TimeMs t, int64_t d) { return d > kNever - t ? kNever : t + d; }

std::string leafQueue(const std::string& q) {
  auto dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

uint64_t packContainer(ContainerId id) { return (uint64_t{id.attempt.attempt} << 40) | id.seq; }
ContainerId unpackContainer(uint32_t app, uint64_t b) {
  return ContainerId{{AppId(app), static_cast<uint32_t>(b >> 40)}, b & ((uint64_t{1} << 40) - 1)};
}

}  // namespace

// --- Timer window ---------------------------------------------------------------------------

void Engine::TimerWindow::add(double ms) {
  window_[static_cast<size_t>(count_ % static_cast<int64_t>(window_.size()))] = ms;
  ++count_;
}

TimerStats Engine::TimerWindow::stats() const {
  TimerStats s;
  s.count = count_;
  const size_t n = static_cast<size_t>(std::min<int64_t>(count_, window_.size()));
  if (n == 0) return s;
  std::vector<double> v(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(n));
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(n);
  double var = 0;
  for (double x : v) var += (x - s.mean) * (x - s.mean);
  s.stddev = n > 1 ? std::sqrt(var / static_cast<double>(n - 1)) : 0;
  s.min = v.front();
  s.max = v.back();
  auto q = [&](double p) {
    return v[std::min(n - 1, static_cast<size_t>(p * static_cast<double>(n)))];
  };
  s.p50 = q(0.5);
  s.p75 = q(0.75);
  s.p95 = q(0.95);
  s.p98 = q(0.98);
  s.p99 = q(0.99);
  s.p999 = q(0.999);
  return s;
}

template <typename F>
auto Engine::timed(TimerWindow* extra, F&& f) -> decltype(f()) {
  if (!opt_.timings) {
    handleTimer_.countOnly();
    if (extra) extra->countOnly();
    return f();
  }
  const auto start = std::chrono::steady_clock::now();
  auto s = f();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  handleTimer_.add(ms);
  if (extra) extra->add(ms);
  return s;
}

// --- Set-up ---------------------------------------------------------------------------------

Engine::Engine(const Trace& trace, EngineOptions options)
    : trace_(trace),
      opt_(std::move(options)),
      clock_(0),
      rng_(opt_.seed),
      allocateTimer_(static_cast<size_t>(opt_.sls.metricsTimerWindow)),
      handleTimer_(static_cast<size_t>(opt_.sls.metricsTimerWindow)) {}

Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::create(const Trace& trace, EngineOptions options) {
  std::unique_ptr<Engine> e(new Engine(trace, std::move(options)));
  Rng schedRng = e->rng_.fork();
  Rng nmRng = e->rng_.fork();
  // The scheduler keeps a reference to its Rng: keep it alive in the engine.
  e->rng_ = schedRng;
  SPINDLE_ASSIGN_OR_RETURN(
      e->driver_,
      Driver::create(e->opt_.conf, e->clock_, e->rng_,
                     DriverOptions{.checkInvariantsEvery = e->opt_.checkInvariantsEvery}));
  e->driver_->setDecisionSink(e->opt_.decisionLog);
  if (e->opt_.sls.nmHeartbeatMs <= 0 || e->opt_.sls.amHeartbeatMs <= 0) {
    return invalidArgument("heartbeat intervals must be positive");
  }
  e->sweep_ = std::make_unique<HeartbeatSweep>(e->opt_.sls.nmHeartbeatMs, nmRng,
                                               static_cast<uint32_t>(trace.nodes.size()));
  for (size_t i = 0; i < trace.jobs.size(); ++i) {
    const TraceJob& job = trace.jobs[i];
    auto kind = amKindFor(job.amType, e->opt_.sls);
    if (!kind) return kind.status().withContext(fmt::format("job {} ('{}')", i, job.id));
    JobRun run;
    run.kind = *kind;
    e->runs_.push_back(std::move(run));
    JobResult r;
    r.id = job.id;
    r.queue = job.queue;
    r.user = job.user;
    r.amType = job.amType;
    r.traceStartMs = job.startMs;
    r.traceEndMs = job.endMs;
    r.submitMs = job.startMs;
    r.tasks = static_cast<int>(job.tasks.size());
    e->results_.push_back(std::move(r));
    e->tracked_.emplace(job.id, static_cast<uint32_t>(i));
  }
  std::map<std::string, uint32_t> tracked;
  for (const std::string& id : e->opt_.trackJobs) {
    auto it = e->tracked_.find(id);
    if (it == e->tracked_.end())
      return invalidArgument("--track-jobs: no job '{}' in the trace", id);
    tracked.emplace(id, it->second);
  }
  e->tracked_ = std::move(tracked);
  SPINDLE_RETURN_IF_ERROR(e->setUpPlacement());
  SPINDLE_RETURN_IF_ERROR(e->setUpNodes());
  if (!e->opt_.outputDir.empty() && e->opt_.sls.metricsOn) {
    e->metrics_ = std::make_unique<MetricsWriter>();
    SPINDLE_RETURN_IF_ERROR(e->metrics_->open(e->opt_.outputDir, {.timings = e->opt_.timings}));
  }
  return e;
}

// Parses every placement spec of the trace once (the AMs share the constraints) and reads the
// handler's counting rule; nothing when no task uses placement.
Status Engine::setUpPlacement() {
  for (const TraceJob& job : trace_.jobs) {
    for (const TraceTask& t : job.tasks) {
      if (!t.usesPlacement()) continue;
      if (!placementAsks_) {
        SPINDLE_ASSIGN_OR_RETURN(PlacementSettings ps, placementSettingsFromConfig(opt_.conf));
        placementAsks_ = std::make_unique<PlacementAsks>();
        placementAsks_->absoluteCounts = ps.handler != PlacementHandler::kPlacementProcessor;
        placementTracker_ = std::make_unique<PlacementTracker>();
      }
      if (t.placementSpec.empty() || placementAsks_->constraints.count(t.placementSpec)) continue;
      Result<placement::PlacementConstraint> c = placement::parseExpression(t.placementSpec);
      if (!c) {
        return invalidArgument("job '{}': placement spec '{}': {}", job.id, t.placementSpec,
                               c.status().message());
      }
      placementAsks_->constraints.emplace(t.placementSpec, *c);
    }
  }
  return Status::ok();
}

Status Engine::setUpNodes() {
  // Cluster node labels first (rmadmin -addToClusterNodeLabels), then the nodes register.
  std::vector<NodeLabel> labels;
  std::set<std::string> seen;
  for (const TraceNode& n : trace_.nodes) {
    for (const NodeLabelSpec& l : n.labels) {
      if (seen.insert(l.name).second) labels.push_back(NodeLabel{l.name, l.exclusive});
    }
  }
  if (!labels.empty()) SPINDLE_RETURN_IF_ERROR(deliver(driver_->handle(AddNodeLabels{labels})));
  const size_t n = trace_.nodes.size();
  reports_.resize(n);
  reportPos_.assign(n, kNoPosition);
  nodeAllocMb_.assign(n, 0);
  nodeTotalMb_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const TraceNode& tn = trace_.nodes[i];
    NodeAdded added{tn.name, tn.rack, tn.resource, {}, tn.attributes};
    for (const NodeLabelSpec& l : tn.labels) added.labels.push_back(l.name);
    SPINDLE_RETURN_IF_ERROR(
        deliver(driver_->handle(added)).withContext(fmt::format("node '{}'", tn.name)));
    NodeId id = *scheduler().cluster().findNode(tn.name);
    nodeIds_.push_back(id);
    if (nodeIndexOf_.size() <= id.value()) nodeIndexOf_.resize(id.value() + 1);
    nodeIndexOf_[id.value()] = static_cast<uint32_t>(i);
    nodeTotalMb_[i] = tn.resource.memoryMb();
    ++buckets_[0];
  }
  return Status::ok();
}

// --- Main loop ------------------------------------------------------------------------------

Status Engine::run() {
  const auto wallStart = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < trace_.jobs.size(); ++i) {
    events_.push(trace_.jobs[i].startMs, EventType::kSubmit, i);
  }
  if (const ReservationSystem* rs = driver_->reservationSystem()) {
    const int64_t step = rs->stepMs();
    for (uint32_t i = 0; i < trace_.jobs.size(); ++i) {
      const TraceJob& j = trace_.jobs[i];
      if (!j.wantsReservation || !j.deadlineMs) continue;
      results_[i].reservationAsked = true;
      results_[i].deadlineMs = j.deadlineMs;
      const int64_t arrival = j.startMs > 0 ? (j.startMs - 1) / step * step : 0;
      if (arrival < step) {
        results_[i].reservationNote = "starts within the first plan step: no reservation";
        continue;
      }
      events_.push(arrival - step, EventType::kReserve, i);
    }
  }
  if (metrics_) events_.push(0, EventType::kSample, 0);
  if (std::optional<TimeMs> tick = driver_->nextMonitorTick()) {
    events_.push(*tick, EventType::kMonitor, 0);
  }
  const uint32_t numNodes = sweep_->numNodes();
  int64_t steps = 0;
  Status status = Status::ok();
  while (terminal_ < runs_.size()) {
    if (opt_.progress && (++steps & 0xffff) == 0) {
      opt_.progress(Progress{clock_.nowMs(), static_cast<int64_t>(terminal_),
                             static_cast<int64_t>(runs_.size()), steps});
    }
    while (!reportHeap_.empty() &&
           reportPos_[sweep_->nodeOf(reportHeap_.top())] != reportHeap_.top()) {
      reportHeap_.pop();
    }
    const bool demand = driver_->hasPendingDemand();
    if (stalled(demand)) {
      stats_.stalled = true;
      break;
    }
    // The next heartbeat slot worth visiting.
    Position p = kNoPosition;
    if (numNodes > 0) {
      if (!opt_.heartbeatSkip || demand) {
        p = std::max(cursor_, sweep_->firstAtOrAfter(clock_.nowMs()));
      } else if (!reportHeap_.empty()) {
        p = reportHeap_.top();
      }
    }
    const TimeMs tSweep = sweep_->timeOf(p);
    const TimeMs tHeap = events_.empty() ? kNever : events_.top().time;
    const TimeMs t = std::min(tSweep, tHeap);
    if (t == kNever) break;
    if (opt_.untilMs && t > *opt_.untilMs) {
      clock_.setMs(*opt_.untilMs);
      break;
    }
    clock_.setMs(t);
    if (tHeap <= tSweep) {
      ++stats_.heapEvents;
      const SimEvent e = events_.pop();
      currentEvent_ = &e;
      status = onEvent(e);
      currentEvent_ = nullptr;
    } else {
      cursor_ = p + 1;
      const uint32_t node = sweep_->nodeOf(p);
      if (reportPos_[node] == p || !opt_.heartbeatSkip ||
          !scheduler().cluster().contains(nodeIds_[node]) ||
          !driver_->emptyHeartbeatIsNoop(nodeIds_[node])) {
        status = nodeHeartbeat(node);
      } else {
        ++stats_.heartbeatsSkipped;
      }
    }
    if (!status.isOk()) break;
  }
  stats_.endMs = clock_.nowMs();
  stats_.runningAtEnd = static_cast<int64_t>(scheduler().containers().size());
  stats_.allocatedMbMs +=
      static_cast<double>(allocatedMb_) * static_cast<double>(stats_.endMs - allocatedSince_);
  allocatedSince_ = stats_.endMs;
  stats_.clusterMb = scheduler().cluster().total().memoryMb();
  stats_.decisions = scheduler().decisionCount();
  if (metrics_ && lastSampleMs_ < clock_.nowMs()) sample();
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (runs_[i].terminal) continue;
    const Application* a = results_[i].app.valid() ? scheduler().findApp(results_[i].app) : nullptr;
    if (a) results_[i].state = toString(a->state());
  }
  if (metrics_) {
    Status closed = metrics_->close();
    if (status.isOk()) status = closed;
  }
  stats_.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  return status;
}

// Quiet = only samples in the heap and no node report due. Quiet without demand can never end;
// quiet with demand ends the run after 100 heartbeat cycles in which nothing was decided.
// The rule looks only at simulated state, so it stops at the same point with or without the
// heartbeat-skip rules.
bool Engine::stalled(bool demand) {
  if (!events_.noWorkLeft() || busyAms_ > 0 || !reportHeap_.empty()) {
    quietSince_ = -1;
    return false;
  }
  if (!demand || sweep_->numNodes() == 0) return true;
  const int64_t decisions = scheduler().decisionCount();
  if (quietSince_ < 0 || quietDecisions_ != decisions) {
    quietSince_ = std::max(cursor_, sweep_->firstAtOrAfter(clock_.nowMs()));
    quietDecisions_ = decisions;
    return false;
  }
  return cursor_ - quietSince_ >= Position{100} * sweep_->numNodes();
}

Status Engine::onEvent(const SimEvent& e) {
  switch (e.type) {
    case EventType::kSubmit: return submit(e.a);
    case EventType::kReserve: return reserve(e.a);
    case EventType::kAmHeartbeat:
      if (runs_[e.a].terminal || runs_[e.a].nextBeat != e.time) return Status::ok();  // stale
      return amHeartbeat(e.a);
    case EventType::kTaskEnd: taskEnded(e); return Status::ok();
    case EventType::kAction: {
      Result<SchedulerEvent> event = actions_[e.a](scheduler());
      if (!event) return event.status();
      return deliver(driver_->handle(*event));
    }
    case EventType::kMonitor: {
      Status s = deliver(timed(nullptr, [&] { return driver_->runDueMonitorTick(); }));
      recordPreemptionRound();
      if (std::optional<TimeMs> next = driver_->nextMonitorTick()) {
        events_.push(*next, EventType::kMonitor, 0);
      }
      return s;
    }
    case EventType::kSample:
      sample();
      events_.push(later(e.time, opt_.sls.metricsRecordIntervalMs), EventType::kSample, 0);
      return Status::ok();
  }
  return Status::ok();
}

void Engine::scheduleAction(TimeMs t,
                            std::function<Result<SchedulerEvent>(const Scheduler&)> action) {
  actions_.push_back(std::move(action));
  events_.push(t, EventType::kAction, static_cast<uint32_t>(actions_.size() - 1));
}

// --- Jobs and AMs ---------------------------------------------------------------------------

Status Engine::submit(uint32_t job) {
  const TraceJob& tj = trace_.jobs[job];
  AppSubmission sub;
  sub.name = tj.id;
  sub.queue = tj.queue;
  sub.user = tj.user;
  sub.priority = tj.priority;
  sub.amResource = tj.amResource;
  sub.amNodeLabelExpression = tj.labelExpression;
  sub.applicationType = runs_[job].kind == AmKind::kMapReduce ? "MAPREDUCE" : "YARN";
  sub.reservationId = results_[job].reservationId;
  Result<const Outcome&> out = timed(nullptr, [&] { return driver_->submit(sub); });
  if (!out) {  // bad input: no app
    markTerminal(job, "REJECTED", out.status().message());
    return Status::ok();
  }
  const AppChange& admission = *out->admission();
  const AppId id = admission.app;
  if (appToJob_.size() <= id.value()) appToJob_.resize(id.value() + 1);
  appToJob_[id.value()] = job;
  results_[job].app = id;
  if (admission.action == AppAction::kRejected) {
    markTerminal(job, "REJECTED", admission.reason);
    return Status::ok();
  }
  results_[job].state = "ACCEPTED";
  results_[job].queue = scheduler().findApp(id)->queue();  // where the scheduler placed it
  runs_[job].am = std::make_unique<AmSimulator>(
      tj, runs_[job].kind, opt_.sls.amWorkPreservingPreemption, placementAsks_.get());
  scheduleBeat(job, clock_.nowMs() + opt_.sls.amHeartbeatMs);
  return Status::ok();
}

Status Engine::reserve(uint32_t job) {
  const TraceJob& tj = trace_.jobs[job];
  JobResult& r = results_[job];
  ReservationSystem& rs = *driver_->reservationSystem();
  driver_->settle();  // the plan's capacity is read from the queues, current after settle()
  // After ReservationClientUtil.createMRReservation: maps then reduces, each one gang of all
  // its containers. Unlike SLS each stage also holds the AM container (it runs throughout) and
  // lasts two plan steps and two AM heartbeats longer than its longest task: the job is
  // submitted up to a step after the reservation starts and its AM asks on its heartbeats.
  reservation::ReservationDefinition def;
  def.arrival = (tj.startMs - 1) / rs.stepMs() * rs.stepMs();
  def.deadline = *tj.deadlineMs;
  def.interpreter = reservation::Interpreter::kOrderNoGap;
  def.name = "reservation_" + tj.id;
  const int64_t slackMs = 2 * (rs.stepMs() + opt_.sls.amHeartbeatMs);
  for (TaskType type : {TaskType::kMap, TaskType::kReduce}) {
    reservation::ReservationRequest stage;
    stage.numContainers = 1;  // the AM
    stage.capability = tj.amResource;
    stage.durationMs = 0;
    for (const TraceTask& t : tj.tasks) {
      if (t.type != type) continue;
      ++stage.numContainers;
      stage.capability = Resource::componentwiseMax(stage.capability, t.resource);
      stage.durationMs = std::max(stage.durationMs, t.durationMs);
    }
    if (stage.numContainers == 1) continue;
    stage.durationMs += slackMs;
    stage.concurrency = stage.numContainers;
    def.stages.push_back(stage);
  }
  if (def.stages.empty()) {
    r.reservationNote = "no tasks to reserve for";
    return Status::ok();
  }
  const reservation::ReservationId id = rs.newReservationId();
  reservation::PlanStatus st = rs.submit(tj.queue, id, &def, tj.user);
  if (st.isOk()) {
    r.reservationId = id.toString();
  } else {
    r.reservationNote = st.toString();
  }
  return Status::ok();
}

Status Engine::amHeartbeat(uint32_t job) {
  JobRun& run = runs_[job];
  const AppId app = results_[job].app;
  const TimeMs now = clock_.nowMs();
  AmActions act =
      run.am->heartbeat(now, scheduler().preemptionMessage(app), opt_.sls.amHonoursPreemption);
  if (act.restart) {
    ++stats_.amRestarts;
    ++results_[job].amRestarts;
    SPINDLE_RETURN_IF_ERROR(deliver(timed(nullptr, [&] { return driver_->restartAttempt(app); })));
    if (run.terminal) return Status::ok();  // no attempts left: the app FAILED
    run.am->resetForNewAttempt();
    afterBeat(job);
    return Status::ok();
  }
  if (act.amStarted) results_[job].state = "RUNNING";
  for (ContainerId id : act.givenBack) {
    auto it = running_.find(id);
    if (it == running_.end()) continue;
    ++results_[job].preemptionReleased;
    results_[job].preemptedRunMs += now - it->second.sinceMs;
  }
  if (act.finished) {
    SPINDLE_RETURN_IF_ERROR(deliver(timed(&allocateTimer_, [&] {
      return driver_->handle(AppAllocate{app, {}, act.releases, {}, {}});
    })));
    return deliver(timed(nullptr, [&] {
      return driver_->handle(AppRemoved{app, AppState::FINISHED});
    }));
  }
  for (const TaskStart& s : act.starts) {
    running_[s.container] = Launched{nodeIndexOf_[s.node.value()], now};
    events_.push(later(now, s.durationMs), EventType::kTaskEnd, s.container.app().value(),
                 packContainer(s.container));
  }
  if (!act.asks.empty() || !act.releases.empty() || !act.schedulingRequests.empty()) {
    Result<const Outcome&> out = timed(&allocateTimer_, [&] {
      return driver_->handle(AppAllocate{
          app, std::move(act.asks), act.releases, {}, {}, std::move(act.schedulingRequests)});
    });
    if (!out) {
      // An ask the scheduler refuses (e.g. above the maximum allocation) can never be served:
      // the job is killed rather than left waiting forever.
      results_[job].note = out.status().message();
      return deliver(timed(nullptr, [&] {
        return driver_->handle(AppRemoved{app, AppState::KILLED});
      }));
    }
    apply(*out);
  }
  afterBeat(job);
  return Status::ok();
}

void Engine::updateBusy(uint32_t job) {
  JobRun& run = runs_[job];
  const bool busy = !run.terminal && run.am && (!run.am->inboxEmpty() || run.am->dueTime());
  busyAms_ += static_cast<int64_t>(busy) - static_cast<int64_t>(run.busy);
  run.busy = busy;
}

void Engine::scheduleBeat(uint32_t job, TimeMs t) {
  runs_[job].nextBeat = t;
  events_.push(t, EventType::kAmHeartbeat, job);
}

TimeMs Engine::gridBeatAtOrAfter(uint32_t job, TimeMs t) const {
  const TimeMs submit = results_[job].submitMs, interval = opt_.sls.amHeartbeatMs;
  const int64_t k = std::max<int64_t>(1, (t - submit + interval - 1) / interval);
  return submit + k * interval;
}

// The next heartbeat, or none while the AM provably has nothing to do (the skip rule).
void Engine::afterBeat(uint32_t job) {
  updateBusy(job);
  JobRun& run = runs_[job];
  const TimeMs next = later(clock_.nowMs(), opt_.sls.amHeartbeatMs);
  if (!opt_.heartbeatSkip || !run.am->inboxEmpty()) {
    scheduleBeat(job, next);
  } else if (auto due = run.am->dueTime()) {
    scheduleBeat(job, gridBeatAtOrAfter(job, std::max(*due, next)));
  } else {
    run.nextBeat = kNever;
  }
}

// Something arrived for the AM: its next grid heartbeat must run. A beat at the current time
// still counts when it sorts after the event being handled (it would not have run yet).
void Engine::wakeAm(uint32_t job) {
  updateBusy(job);
  JobRun& run = runs_[job];
  if (!opt_.heartbeatSkip || run.terminal || !run.am) return;
  const TimeMs now = clock_.nowMs();
  TimeMs t = gridBeatAtOrAfter(job, now);
  if (t == now) {
    const SimEvent beat{now, EventType::kAmHeartbeat, job, 0};
    if (currentEvent_ == nullptr || !(currentEvent_->key() < beat.key())) {
      t += opt_.sls.amHeartbeatMs;
    }
  }
  if (t < run.nextBeat) scheduleBeat(job, t);
}

void Engine::markTerminal(uint32_t job, std::string state, std::string note) {
  if (runs_[job].terminal) return;
  runs_[job].terminal = true;
  runs_[job].nextBeat = kNever;
  results_[job].state = std::move(state);
  if (!note.empty()) results_[job].note = std::move(note);
  results_[job].endMs = clock_.nowMs();
  runs_[job].am.reset();
  updateBusy(job);
  ++terminal_;
}

Engine::JobRun* Engine::jobOfApp(AppId app) {
  if (!app.valid() || app.value() >= appToJob_.size()) return nullptr;
  return &runs_[appToJob_[app.value()]];
}

// --- Node managers --------------------------------------------------------------------------

void Engine::taskEnded(const SimEvent& e) {
  const ContainerId id = unpackContainer(e.a, e.b);
  auto it = running_.find(id);
  if (it == running_.end()) return;  // killed or released before its end
  const uint32_t node = it->second.node;
  running_.erase(it);
  reports_[node].push_back(CompletedContainer{id, ContainerExitStatus::SUCCESS});
  scheduleReport(node);
}

void Engine::scheduleReport(uint32_t node) {
  if (reportPos_[node] != kNoPosition) return;
  Position p = sweep_->nextOfNode(node, clock_.nowMs());
  while (p < cursor_) p += sweep_->numNodes();  // this node's slot at `now` already passed
  reportPos_[node] = p;
  reportHeap_.push(p);
}

Status Engine::nodeHeartbeat(uint32_t node) {
  std::vector<CompletedContainer> completed;
  completed.swap(reports_[node]);
  reportPos_[node] = kNoPosition;
  if (!scheduler().cluster().contains(nodeIds_[node])) return Status::ok();  // the node was lost
  ++stats_.heartbeats;
  return deliver(timed(nullptr, [&] { return driver_->heartbeat(nodeIds_[node], completed); }));
}

// --- Decisions ------------------------------------------------------------------------------

int Engine::bucketOf(uint32_t node) const {
  if (nodeTotalMb_[node] <= 0) return 0;
  return static_cast<int>(
      std::clamp<int64_t>(nodeAllocMb_[node] * 10 / nodeTotalMb_[node], 0, kNodeUsageBuckets - 1));
}

void Engine::nodeMemoryChanged(NodeId id, int64_t deltaMb) {
  if (id.value() >= nodeIndexOf_.size()) return;
  const uint32_t node = nodeIndexOf_[id.value()];
  --buckets_[bucketOf(node)];
  nodeAllocMb_[node] += deltaMb;
  ++buckets_[bucketOf(node)];
  const TimeMs now = clock_.nowMs();
  stats_.allocatedMbMs +=
      static_cast<double>(allocatedMb_) * static_cast<double>(now - allocatedSince_);
  allocatedSince_ = now;
  allocatedMb_ += deltaMb;
}

Status Engine::deliver(Result<const Outcome&> out) {
  if (!out) return out.status();
  apply(*out);
  return Status::ok();
}

// In the order the scheduler made the changes: AM inboxes and woken AMs' heartbeats (heap
// events with a sequence) follow it. Admissions are handled by submit().
void Engine::apply(const Outcome& out) {
  for (const ContainerChange& c : out.containers) {
    switch (c.action) {
      case ContainerAction::kAllocated: allocated(c); break;
      case ContainerAction::kCompleted:
      case ContainerAction::kKilled:
      case ContainerAction::kReleased: finished(c); break;
      case ContainerAction::kPreemptionMarked:
        ++preemptedByQueue_[queueOfApp(c.app())].first;
        if (jobOfApp(c.app())) ++results_[appToJob_[c.app().value()]].preemptionMarked;
        // The AM reads the preemption message on its next heartbeat.
        if (JobRun* run = jobOfApp(c.app()); run && !run->terminal) {
          wakeAm(appToJob_[c.app().value()]);
        }
        break;
    }
  }
  for (const RejectedSchedulingRequest& r : out.rejectedSchedulingRequests) rejected(r);
  for (const AppChange& a : out.apps) {
    if (a.action != AppAction::kFinished) continue;
    ++completedApps_;
    if (a.app.value() < appToJob_.size()) {
      markTerminal(appToJob_[a.app.value()], toString(a.finalState), "");
    }
  }
}

// The leaf queue of an app the scheduler knows, else of its job in the trace.
std::string Engine::queueOfApp(AppId app) const {
  if (const Application* a = scheduler().findApp(app)) return leafQueue(a->queue());
  if (app.valid() && app.value() < appToJob_.size()) {
    return leafQueue(results_[appToJob_[app.value()]].queue);
  }
  return "";
}

void Engine::allocated(const ContainerChange& c) {
  ++stats_.allocations;
  if (c.am) ++stats_.amAllocations;
  nodeMemoryChanged(c.node, c.resource.memoryMb());
  JobRun* run = jobOfApp(c.app());
  if (run == nullptr || run->terminal || !run->am) return;
  const uint32_t job = appToJob_[c.app().value()];
  if (c.am) {
    if (!results_[job].startMs) results_[job].startMs = clock_.nowMs();
    running_[c.id] = Launched{nodeIndexOf_[c.node.value()], clock_.nowMs()};  // launches at once
  }
  const Node& n = scheduler().cluster().node(c.node);
  if (placementTracker_ && !c.am) {
    if (const std::vector<std::string>* tags = run->am->tagsOf(c.key)) {
      placementTracker_->allocated(c.id, job, *tags, nodeIndexOf_[c.node.value()], n.rack());
    }
  }
  run->am->notifyAllocated(
      AllocatedContainer{c.id, c.node, n.name(), n.rack(), c.locality, c.key, c.am});
  wakeAm(job);
}

void Engine::rejected(const RejectedSchedulingRequest& r) {
  if (!r.app.valid() || r.app.value() >= appToJob_.size() || !r.request.sizing) return;
  const uint32_t job = appToJob_[r.app.value()];
  const int32_t count = r.request.sizing->numAllocations;
  results_[job].rejections[toString(r.reason)] += count;
  JobRun& run = runs_[job];
  if (run.terminal || !run.am) return;
  run.am->notifyRejected(r.request.key(), count);
  wakeAm(job);
}

void Engine::finished(const ContainerChange& c) {
  nodeMemoryChanged(c.node, -c.resource.memoryMb());
  if (placementTracker_) placementTracker_->finished(c.id);
  if (c.action == ContainerAction::kCompleted) ++stats_.containersCompleted;
  switch (c.action) {
    case ContainerAction::kCompleted: ++stats_.endedCompleted; break;
    case ContainerAction::kReleased: ++stats_.endedReleased; break;
    default:
      ++stats_.endedKilled;
      if (c.exitStatus == ContainerExitStatus::PREEMPTED) {
        ++stats_.endedPreempted;
        ++preemptedByQueue_[queueOfApp(c.app())].second;
      }
  }
  auto it = running_.find(c.id);
  if (c.exitStatus == ContainerExitStatus::PREEMPTED && jobOfApp(c.app())) {
    JobResult& r = results_[appToJob_[c.app().value()]];
    ++r.preempted;
    if (it != running_.end()) r.preemptedRunMs += clock_.nowMs() - it->second.sinceMs;
  }
  if (it != running_.end()) {
    const uint32_t node = it->second.node;
    running_.erase(it);
    if (c.action == ContainerAction::kKilled) {
      // The NM learns of the kill and reports the container ABORTED (NMSimulator).
      ++stats_.containersKilled;
      reports_[node].push_back(CompletedContainer{c.id, ContainerExitStatus::ABORTED});
      scheduleReport(node);
    }
  }
  JobRun* run = jobOfApp(c.app());
  if (c.action != ContainerAction::kReleased && run && !run->terminal && run->am) {
    run->am->notifyCompleted(c.id, c.exitStatus, clock_.nowMs());
    wakeAm(appToJob_[c.app().value()]);
  }
}

// --- Metrics --------------------------------------------------------------------------------

// A round is new when its time differs from the last one recorded (the scheduler keeps its
// last report until the next round).
void Engine::recordPreemptionRound() {
  const PreemptionRoundReport* r = scheduler().lastPreemptionRound();
  if (r == nullptr || (lastRoundMs_ && *lastRoundMs_ == r->timeMs)) return;
  lastRoundMs_ = r->timeMs;
  ++stats_.preemptionRounds;
  stats_.containersMarked += r->containersMarked;
  stats_.containersPreemptKilled += r->containersKilled;
  if (!preemption_) preemption_.emplace();
  preemption_->rounds = stats_.preemptionRounds;
  preemption_->containersMarked = stats_.containersMarked;
  preemption_->containersKilled = stats_.containersPreemptKilled;
  preemption_->queues.clear();
  for (const QueuePreemptionFigures& q : r->queues) {
    // The samples show each leaf's default partition.
    if (!q.partition.empty() || !isLeafOfRound(*r, q.queue)) continue;
    preemption_->queues[leafQueue(q.queue)] = QueuePreemptionSample{
        q.guaranteed, q.idealAssigned, q.toBePreempted, q.actuallyToBePreempted, q.selected};
  }
  if (metrics_) metrics_->writeRound(*r);
}

void Engine::sample() {
  MetricsSample s;
  s.timeMs = clock_.nowMs();
  for (const std::string& q : knownQueues_) s.queues[q];
  for (const auto& [id, a] : scheduler().apps()) {
    if (a->state() == AppState::RUNNING) {
      ++s.runningApps;
    } else {
      ++s.pendingApps;
    }
    const std::string leaf = leafQueue(a->queue());
    if (knownQueues_.insert(leaf).second) s.queues[leaf];
    QueueSample& q = s.queues[leaf];
    q.allocatedMb += a->used().memoryMb();
    q.allocatedVcores += a->used().vcores();
    q.pendingMb += a->asks().pending().memoryMb();
    q.pendingVcores += a->asks().pending().vcores();
    s.pendingMb += a->asks().pending().memoryMb();
    s.pendingVcores += a->asks().pending().vcores();
  }
  for (const auto& [queue, counts] : preemptedByQueue_) {
    if (queue.empty()) continue;
    knownQueues_.insert(queue);
    s.queues[queue].containersMarked = counts.first;
    s.queues[queue].containersPreempted = counts.second;
  }
  for (auto& [name, q] : s.queues) {
    if (std::optional<QueueLimits> limits = queueLimits(scheduler(), name)) {
      q.limits = *limits;
    }
    if (std::optional<Resource> share = scheduler().fairShare(name)) {
      s.fairShareMb[name] = share->memoryMb();
    }
    if (std::optional<QueueShares> shares = queueShares(scheduler(), name)) {
      s.fairQueues[name] = *shares;
    }
  }
  s.completedApps = completedApps_;
  s.runningContainers = static_cast<int64_t>(scheduler().containers().size());
  const Cluster& c = scheduler().cluster();
  s.allocatedMb = c.allocated().memoryMb();
  s.allocatedVcores = c.allocated().vcores();
  s.availableMb = c.total().memoryMb() - s.allocatedMb;
  s.availableVcores = c.total().vcores() - s.allocatedVcores;
  const TimeMs since = lastSampleMs_ < 0 ? 0 : s.timeMs - lastSampleMs_;
  const int64_t allocs = stats_.allocations - allocsAtLastSample_;
  s.commitsPerSecond =
      since > 0 ? static_cast<double>(allocs) * 1000.0 / static_cast<double>(since) : 0;
  allocsAtLastSample_ = stats_.allocations;
  s.allocateOps = allocateTimer_.count();
  s.handleOps = handleTimer_.count();
  if (opt_.timings) {
    s.allocateTimer = allocateTimer_.stats();
    s.handleTimer = handleTimer_.stats();
  }
  s.nodeMemoryUsage = buckets_;
  if (opt_.sls.nmUtilizationRatio > 0 && opt_.sls.nmUtilizationRatio <= 1) {
    s.utilization = true;
    s.utilizationMb = static_cast<double>(s.allocatedMb) * opt_.sls.nmUtilizationRatio;
    s.utilizationVcores = static_cast<double>(s.allocatedVcores) * opt_.sls.nmUtilizationRatio;
  }
  for (const auto& [id, job] : tracked_) {
    int64_t live = 0, reserved = 0;
    if (const Application* a =
            results_[job].app.valid() ? scheduler().findApp(results_[job].app) : nullptr) {
      if (!isFinal(a->state())) {
        live = static_cast<int64_t>(a->liveContainers().size());
        for (NodeId n : c.nodeIds()) {
          const auto& r = c.node(n).reservation();
          if (r && r->container.app() == a->id()) ++reserved;
        }
      }
    }
    s.trackedJobs[id] = {live, reserved};
  }
  s.preemption = preemption_;
  metrics_->write(s);
  lastSampleMs_ = s.timeMs;
}

}  // namespace spindle::sim
