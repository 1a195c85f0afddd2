#include "scenario/scenario_runner.h"

#include <filesystem>
#include <fstream>

#include "base/rng.h"
#include "dao/decision_json.h"
#include "dao/reservation_view.h"
#include "dao/rest_views.h"
#include "scenario/expectations.h"
#include "scenario/placement_views.h"
#include "scheduler/driver.h"

namespace spindle {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class Runner {
 public:
  Runner(const Scenario& sc, const RunOptions& opt)
      : sc_(sc), opt_(opt), clock_(sc.startTime), rng_(sc.seed), conf_(sc.conf) {}

  Result<RunResult> run();

 private:
  Status setUp();
  Status runStep(const Step& step);
  // A step with expectError: the error must come and contain the text.
  void checkStepError(const Step& step, const Status& st);
  Status apply(const Step& step);
  const Scheduler& sched() const { return driver_->scheduler(); }
  Result<AppId> app(const std::string& handle) const;
  Result<ContainerId> container(const std::string& handle) const;
  // The reservation id a handle names: a handle seen before, a YARN id string as it is, or a
  // new id from the reservation system (so an update of an unknown handle names an id no plan
  // holds, as a client's would); none for "".
  Result<std::optional<reservation::ReservationId>> reservationId(const std::string& handle);
  Status applyReservation(const ReservationBody& body, const std::string* queue, bool update);
  // `advance` with monitorTicks: the clock stops at each due tick on the way (monitors and the
  // plan follower, as Driver::runDueMonitorTick), then reaches the end.
  Status advanceWithTicks(int64_t ms);
  Status writeSnapshot(const std::string& name) const;
  Status writeDecisions() const;
  std::string summary() const;

  const Scenario& sc_;
  const RunOptions& opt_;
  SimulatedClock clock_;
  Rng rng_;
  DecisionLog log_;
  // The configuration in force: the scenario's, then each successful refreshConfig's.
  Configuration conf_;
  std::unique_ptr<Driver> driver_;
  std::map<std::string, AppId> apps_;
  std::map<std::string, reservation::ReservationId> reservations_;
  size_t lastExpect_ = 0;
  RunResult result_;
};

Status Runner::setUp() {
  if (sc_.configError) return *sc_.configError;
  SPINDLE_ASSIGN_OR_RETURN(
      driver_, Driver::create(sc_.conf, clock_, rng_,
                              DriverOptions{.checkInvariantsEvery = opt_.checkInvariantsEvery}));
  driver_->setDecisionSink(&log_);
  if (!sc_.nodeLabels.empty()) {
    SPINDLE_RETURN_IF_ERROR(
        driver_->handle(AddNodeLabels{sc_.nodeLabels}).status().withContext("cluster.nodeLabels"));
  }
  for (const NodeSpec& n : sc_.nodes) {
    SPINDLE_RETURN_IF_ERROR(
        driver_->handle(NodeAdded{n.name, n.rack, n.resource, n.labels, n.attributes})
            .status()
            .withContext("cluster.nodes"));
  }
  return Status::ok();
}

Result<RunResult> Runner::run() {
  Status setup = setUp();
  if (sc_.expectError) {
    if (setup.isOk()) {
      result_.failures.push_back(
          {-1, "expectError",
           fmt::format("expected setup to fail with '{}', but it succeeded", *sc_.expectError)});
    } else if (setup.message().find(*sc_.expectError) == std::string::npos) {
      result_.failures.push_back({-1, "expectError",
                                  fmt::format("expected an error containing '{}', got: {}",
                                              *sc_.expectError, setup.message())});
    }
    ++result_.expectationsChecked;
    result_.summary = fmt::format("{}: setup error as expected: {}", sc_.name, setup.message());
    return result_;
  }
  SPINDLE_RETURN_IF_ERROR(setup);
  driver_->settle();
  if (!opt_.outDir.empty()) {
    std::error_code ec;
    fs::create_directories(opt_.outDir, ec);
    if (ec) return invalidArgument("--out {}: {}", opt_.outDir, ec.message());
  }
  for (const Step& step : sc_.steps) {
    Status st = Status::ok();
    // The parser validates every field a step reads; this turns a value it missed into the
    // step's error instead of an abort.
    try {
      st = runStep(step);
    } catch (const nlohmann::json::exception& e) {
      st = invalidArgument("unexpected value: {}", e.what());
    }
    if (step.expectError) {
      checkStepError(step, st);
    } else {
      SPINDLE_RETURN_IF_ERROR(st.withContext(fmt::format("steps[{}] ({})", step.index, step.op)));
    }
    ++result_.stepsRun;
    driver_->settle();  // every step's outcome is checked and shown in full
    Status inv = sched().checkInvariants();
    if (!inv.isOk()) {
      result_.failures.push_back({step.index, step.op, "invariant broken: " + inv.message()});
      break;
    }
  }
  result_.decisions = log_.decisions().size();
  result_.summary = summary();
  if (!opt_.outDir.empty()) {
    SPINDLE_RETURN_IF_ERROR(writeDecisions());
    SPINDLE_RETURN_IF_ERROR(writeSnapshot("final"));
    std::ofstream(fs::path(opt_.outDir) / "summary.txt") << result_.summary;
  }
  return result_;
}

Status Runner::runStep(const Step& step) {
  if (step.at) clock_.setMs(*step.at);
  if (auto* e = std::get_if<ExpectStep>(&step.body)) {
    std::span<const Decision> all(log_.decisions());
    ExpectContext ctx{sched(), all.subspan(lastExpect_), apps_, driver_->reservationSystem(),
                      &reservations_};
    for (std::string& f : evaluateExpect(e->body, ctx)) {
      result_.failures.push_back({step.index, step.op, std::move(f)});
    }
    lastExpect_ = log_.decisions().size();
    ++result_.expectationsChecked;
    return Status::ok();
  }
  return apply(step);
}

void Runner::checkStepError(const Step& step, const Status& st) {
  ++result_.expectationsChecked;
  if (st.isOk()) {
    result_.failures.push_back(
        {step.index, step.op,
         fmt::format("expected the step to fail with '{}', but it succeeded", *step.expectError)});
  } else if (st.message().find(*step.expectError) == std::string::npos) {
    result_.failures.push_back({step.index, step.op,
                                fmt::format("expected an error containing '{}', got: {}",
                                            *step.expectError, st.message())});
  }
}

Result<AppId> Runner::app(const std::string& handle) const {
  auto it = apps_.find(handle);
  if (it == apps_.end()) return notFound("unknown app '{}' (submit it first)", handle);
  return it->second;
}

Result<ContainerId> Runner::container(const std::string& handle) const {
  return resolveContainerHandle(handle, sched(), apps_);
}

Status Runner::apply(const Step& step) {
  Driver& d = *driver_;
  const Scheduler& s = d.scheduler();
  return std::visit(
      [&](const auto& b) -> Status {
        using B = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<B, AddNodeStep>) {
          for (const NodeSpec& n : b.nodes) {
            SPINDLE_RETURN_IF_ERROR(
                d.handle(NodeAdded{n.name, n.rack, n.resource, n.labels, n.attributes}).status());
          }
          return Status::ok();
        } else if constexpr (std::is_same_v<B, RemoveNodeStep>) {
          return d.handle(NodeRemoved{b.name}).status();
        } else if constexpr (std::is_same_v<B, UpdateNodeStep>) {
          return d.handle(NodeResourceUpdate{b.name, b.resource}).status();
        } else if constexpr (std::is_same_v<B, HeartbeatStep>) {
          NodeHeartbeat hb{b.node, {}};
          for (const auto& [handle, exit] : b.completed) {
            SPINDLE_ASSIGN_OR_RETURN(ContainerId id, container(handle));
            hb.completed.push_back({id, exit});
          }
          for (int i = 0; i < b.times; ++i) {
            if (!b.all) {
              SPINDLE_RETURN_IF_ERROR(d.handle(hb).status());
              hb.completed.clear();
              continue;
            }
            std::vector<std::string> names;
            for (NodeId n : s.cluster().nodeIds()) names.push_back(s.cluster().nodeName(n));
            std::sort(names.begin(), names.end());
            for (const auto& n : names) {
              SPINDLE_RETURN_IF_ERROR(d.handle(NodeHeartbeat{n, {}}).status());
            }
          }
          return Status::ok();
        } else if constexpr (std::is_same_v<B, SubmitStep>) {
          if (apps_.count(b.app)) return invalidArgument("app '{}' was already submitted", b.app);
          AppSubmission sub{b.app, b.queue, b.user, b.priority, b.am, b.amLabel, b.type, b.tags};
          RegisterApplicationMaster reg;
          for (const auto& [tag, spec] : b.placementConstraints) {
            Result<placement::PlacementConstraint> c = parseScenarioConstraint(spec, s, apps_);
            if (!c) {
              return c.status().withContext(fmt::format("placementConstraints.{}", tag));
            }
            reg.placementConstraints.push_back({{tag}, *c});
          }
          if (!b.reservation.empty()) {
            SPINDLE_ASSIGN_OR_RETURN(auto id, reservationId(b.reservation));
            sub.reservationId = id->toString();
          }
          // A rejection (unknown or stopped queue, ACL, too many apps) is an outcome the
          // scenario checks (app-rejected), not bad input: the handle then names the rejected
          // app. An error is bad input.
          SPINDLE_ASSIGN_OR_RETURN(const Outcome& out, d.submit(sub));
          const AppChange admission = *out.admission();
          apps_[b.app] = admission.app;
          if (reg.placementConstraints.empty() || admission.action == AppAction::kRejected) {
            return Status::ok();
          }
          reg.app = admission.app;
          return d.handle(reg).status();
        } else if constexpr (std::is_same_v<B, AskStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          return d.handle(AppAllocate{id, b.requests, {}, {}, {}}).status();
        } else if constexpr (std::is_same_v<B, ReleaseStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          AppAllocate a{id, {}, {}, {}, {}};
          for (const auto& h : b.containers) {
            SPINDLE_ASSIGN_OR_RETURN(ContainerId c, container(h));
            a.releases.push_back(c);
          }
          return d.handle(a).status();
        } else if constexpr (std::is_same_v<B, BlacklistStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          return d.handle(AppAllocate{id, {}, {}, b.add, b.remove}).status();
        } else if constexpr (std::is_same_v<B, PlaceStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          for (int i = 0; i < b.count; ++i) {
            SPINDLE_RETURN_IF_ERROR(
                d.handle(PlaceContainer{id, b.node, b.resource, b.priority, b.am && i == 0,
                                        b.reserved, b.nodeLabel, b.tags})
                    .status());
          }
          return Status::ok();
        } else if constexpr (std::is_same_v<B, CompleteStep>) {
          SPINDLE_ASSIGN_OR_RETURN(ContainerId c, container(b.container));
          return d.handle(ContainerFinished{c, b.exitStatus}).status();
        } else if constexpr (std::is_same_v<B, FinishAppStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          return d.handle(AppRemoved{id, b.state}).status();
        } else if constexpr (std::is_same_v<B, AdvanceStep>) {
          if (b.monitorTicks) return advanceWithTicks(b.ms);
          clock_.advanceMs(b.ms);
          return Status::ok();
        } else if constexpr (std::is_same_v<B, MonitorStep>) {
          return d.monitorTick().status();
        } else if constexpr (std::is_same_v<B, SnapshotStep>) {
          return opt_.outDir.empty() ? Status::ok() : writeSnapshot(b.name);
        } else if constexpr (std::is_same_v<B, RefreshConfigStep>) {
          if (b.configError) return *b.configError;
          Configuration next = conf_;
          for (const std::string& name : b.removed) next.unset(name);
          next.merge(b.properties);
          SPINDLE_RETURN_IF_ERROR(d.refreshConfiguration(next).status());
          conf_ = std::move(next);
          return Status::ok();
        } else if constexpr (std::is_same_v<B, MoveAppStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          return d.moveApp(id, b.queue).status();
        } else if constexpr (std::is_same_v<B, SchedulingRequestStep>) {
          SPINDLE_ASSIGN_OR_RETURN(AppId id, app(b.app));
          AppAllocate a{id, {}, {}, {}, {}};
          for (const SchedulingRequestSpec& spec : b.requests) {
            SchedulingRequest r;
            r.allocationRequestId = spec.allocationRequestId;
            r.priority = spec.priority;
            r.allocationTags = spec.tags;
            r.sizing = ResourceSizing{spec.count, spec.resource};
            if (spec.constraint) {
              SPINDLE_ASSIGN_OR_RETURN(r.constraint,
                                       parseScenarioConstraint(*spec.constraint, s, apps_));
            }
            a.schedulingRequests.push_back(std::move(r));
          }
          return d.handle(a).status();
        } else if constexpr (std::is_same_v<B, SubmitReservationStep>) {
          return applyReservation(b.body, &b.queue, false);
        } else if constexpr (std::is_same_v<B, UpdateReservationStep>) {
          return applyReservation(b.body, nullptr, true);
        } else if constexpr (std::is_same_v<B, DeleteReservationStep>) {
          return applyReservation(b.body, nullptr, false);
        } else if constexpr (std::is_same_v<B, FeatureStep>) {
          return failedPrecondition("this build's {} scheduler does not provide {}", s.typeName(),
                                    b.feature);
        } else {
          static_assert(std::is_same_v<B, ExpectStep>);
          return Status::ok();
        }
      },
      step.body);
}

Status Runner::advanceWithTicks(int64_t ms) {
  const TimeMs end = clock_.nowMs() + ms;
  while (std::optional<TimeMs> due = driver_->nextMonitorTick()) {
    if (*due > end) break;
    if (*due > clock_.nowMs()) clock_.setMs(*due);
    SPINDLE_RETURN_IF_ERROR(driver_->runDueMonitorTick().status());
    const std::optional<TimeMs> next = driver_->nextMonitorTick();
    if (next && *next <= clock_.nowMs()) {
      return internalError("the monitor tick due at {} ms did not move the cadence on", *due);
    }
  }
  clock_.setMs(end);
  return Status::ok();
}

Result<std::optional<reservation::ReservationId>> Runner::reservationId(const std::string& handle) {
  if (handle.empty()) return std::optional<reservation::ReservationId>();
  if (auto it = reservations_.find(handle); it != reservations_.end()) return {it->second};
  if (auto parsed = reservation::ReservationId::parse(handle)) return {*parsed};
  if (driver_->reservationSystem() == nullptr) {
    return failedPrecondition(
        "the reservation system is not enabled (yarn.resourcemanager.reservation-system.enable)");
  }
  reservation::ReservationId id = driver_->reservationSystem()->newReservationId();
  reservations_[handle] = id;
  return {id};
}

// The REST verbs: a refusal (YARN's validator, the agent, the sharing policy) is the step's
// error, with YARN's exception name and message; the plan is left as it was.
Status Runner::applyReservation(const ReservationBody& body, const std::string* queue,
                                bool update) {
  ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) {
    return failedPrecondition(
        "the reservation system is not enabled (yarn.resourcemanager.reservation-system.enable)");
  }
  if (body.definitionError) return *body.definitionError;
  SPINDLE_ASSIGN_OR_RETURN(auto id, reservationId(body.reservation));
  const reservation::ReservationDefinition* def = body.definition ? &*body.definition : nullptr;
  reservation::PlanStatus st = queue != nullptr ? rs->submit(*queue, id, def, body.user)
                               : update         ? rs->update(id, def, body.user)
                                                : rs->remove(id, body.user);
  return st.toStatus();
}

Status Runner::writeSnapshot(const std::string& name) const {
  fs::path dir = fs::path(opt_.outDir) / "snapshots" / name;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return invalidArgument("cannot create {}: {}", dir.string(), ec.message());
  const std::pair<const char*, json> files[] = {{"scheduler.json", schedulerView(sched())},
                                                {"metrics.json", metricsView(sched())},
                                                {"apps.json", appsView(sched())},
                                                {"nodes.json", nodesView(sched())}};
  for (const auto& [file, j] : files) {
    std::ofstream out(dir / file);
    out << j.dump(2) << '\n';
    if (!out) return invalidArgument("cannot write {}", (dir / file).string());
  }
  // GET /ws/v1/cluster/reservation/list?queue=<plan>&include-resource-allocations=true, one
  // file per plan queue.
  if (const ReservationSystem* rs = driver_->reservationSystem()) {
    for (const std::string& plan : rs->planQueues()) {
      const fs::path file = dir / fmt::format("reservation-list-{}.json", plan);
      std::ofstream out(file);
      out << reservationListView(*rs->plan(plan), {.includeResourceAllocations = true}).dump(2)
          << '\n';
      if (!out) return invalidArgument("cannot write {}", file.string());
    }
  }
  return Status::ok();
}

Status Runner::writeDecisions() const {
  fs::path file = fs::path(opt_.outDir) / "decisions.jsonl";
  std::ofstream out(file);
  size_t seq = 0;
  for (const Decision& d : log_.decisions())
    out << decisionToJson(sched(), d, seq++).dump() << '\n';
  if (!out) return invalidArgument("cannot write {}", file.string());
  return Status::ok();
}

std::string Runner::summary() const {
  std::map<std::string, int> kinds;
  for (const Decision& d : log_.decisions()) ++kinds[toString(d.kind)];
  json m = metricsView(sched())["clusterMetrics"];
  std::string s = fmt::format("scenario: {}\nscheduler: {}\nsimulated time: {} ms\nsteps: {}\n",
                              sc_.name, sched().typeName(), clock_.nowMs(), result_.stepsRun);
  s += fmt::format("cluster: {} nodes, {} MB / {} vcores, {} MB allocated ({:.1f}%)\n",
                   m["activeNodes"].get<int>(), m["totalMB"].get<int64_t>(),
                   m["totalVirtualCores"].get<int64_t>(), m["allocatedMB"].get<int64_t>(),
                   m["totalMB"].get<int64_t>()
                       ? 100.0 * m["allocatedMB"].get<double>() / m["totalMB"].get<double>()
                       : 0.0);
  s += fmt::format("apps: {} submitted, {} running, {} pending, {} completed\n",
                   m["appsSubmitted"].get<int>(), m["appsRunning"].get<int>(),
                   m["appsPending"].get<int>(), m["appsCompleted"].get<int>());
  s += "decisions:";
  for (const auto& [k, n] : kinds) s += fmt::format(" {} {}", k, n);
  s += "\n";
  for (const auto& [handle, id] : apps_) {
    const Application* a = sched().findApp(id);
    if (!a) continue;
    std::string why;
    if (const Decision* d = sched().lastSkip(id); d && a->asks().hasPending()) {
      why = fmt::format(" (pending: {}: {})", toString(d->skip), d->reason);
    }
    s += fmt::format("  {} {} {} queue={} containers={} allocated={}{}\n", handle,
                     sched().appIdString(id), toString(a->state()), a->queue(),
                     a->liveContainers().size(), a->used().toString(), why);
  }
  return s;
}

}  // namespace

Result<RunResult> runScenario(const Scenario& scenario, const RunOptions& options) {
  Runner r(scenario, options);
  return r.run();
}

}  // namespace spindle
