#include "sls/sls_run.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "loadgen/async_connection.h"
#include "loadgen/container_listener.h"
#include "loadgen/node_fleet.h"
#include "protocol/codec.h"
#include "protocol/http_client.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"
#include "sls/trace_am.h"
#include "trace/nodes_reader.h"

namespace spindle::sls {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using loadgen::HttpCall;
using loadgen::steadyNowMs;

std::vector<std::string> unsupportedFeatures(const Trace& trace, const SlsSettings& sls) {
  std::vector<std::string> out;
  for (const TraceJob& j : trace.jobs) {
    if (j.wantsReservation) {
      out.push_back(fmt::format(
          "job '{}' asks for a reservation: it is submitted without one (the daemon run does "
          "not create reservations)",
          j.id));
    }
    if (!j.labelExpression.empty()) {
      out.push_back(fmt::format(
          "job '{}': label expression '{}' goes with its task asks only; its AM container is "
          "asked for without it (the REST submission has no AM label expression)",
          j.id, j.labelExpression));
    }
  }
  bool extraTypes = false;
  for (const TraceNode& n : trace.nodes) {
    for (int i = 2; i < kMaxResourceTypes; ++i) extraTypes = extraTypes || n.resource.get(i) != 0;
  }
  if (extraTypes) {
    out.push_back(
        "resource types beyond memory-mb and vcores are not sent: the protocol records "
        "carry memory and vcores only");
  }
  if (sls.nmUtilizationRatio > 0) {
    out.push_back(
        "yarn.sls.nm.resource.utilization.ratio is not reported: the simulated NMs "
        "send no utilization");
  }
  return out;
}

namespace {

// A query value: unreserved characters as they are, every other byte as %XX (RFC 3986).
std::string queryValue(std::string_view v) {
  std::string out;
  for (unsigned char c : v) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

// "rm.yarn.io/java" = "1.8" as a protocol record; a name without a prefix is rm.yarn.io's
// (NodeAttributeKey's default).
protocol::NodeAttributeRecord attributeRecord(const std::string& name, const std::string& value) {
  protocol::NodeAttributeRecord a;
  const size_t slash = name.rfind('/');
  a.attributePrefix = slash == std::string::npos ? "rm.yarn.io" : name.substr(0, slash);
  a.attributeName = slash == std::string::npos ? name : name.substr(slash + 1);
  a.attributeValue = value;
  return a;
}

}  // namespace

struct SlsRun::Impl {
  struct Job {
    Job(asio::io_context& ioc, asio::ip::tcp::endpoint rm, const TraceJob& tj,
        const sim::AmKind kind, const sim::PlacementAsks* placement, RackOf rackOf)
        : conn(ioc, rm, std::chrono::milliseconds(30'000)),
          timer(ioc),
          pollTimer(ioc),
          trace(tj),
          am(tj, kind, placement, std::move(rackOf)) {}
    loadgen::AsyncConnection conn;
    asio::steady_timer timer;      // submission, then the allocate calls
    asio::steady_timer pollTimer;  // the state polls until the AM registers
    const TraceJob& trace;
    TraceAm am;
    std::string attemptId, amContainerId, amNode;
    int32_t responseId = 0;
    bool submitted = false, ended = false, registered = false, finishing = false;
    TraceAm::Beat pending;  // asks and releases for the next allocate call
  };

  Impl(SlsRun& owner, const Trace& trace, const SlsRunOptions& o)
      : self(owner),
        trace(trace),
        o(o),
        listener(ioc, [this](std::vector<std::string> ids) { onAmContainers(ids); }),
        control(ioc) {}

  SlsRun& self;
  const Trace& trace;
  SlsRunOptions o;
  asio::io_context ioc;
  asio::ip::tcp::endpoint rm;
  loadgen::ContainerListener listener;
  std::unique_ptr<loadgen::NodeFleet> fleet;
  std::vector<std::unique_ptr<Job>> jobs;
  std::unordered_map<std::string, size_t> jobByApp;
  std::unordered_map<std::string, std::string> rackOfNode;  // as the RM sees it
  asio::steady_timer control;
  int64_t t0 = -1;  // steady ms when the clock started
  int64_t registerDeadline = 0;
  size_t ended = 0;
  Status startError = Status::ok();

  int64_t simNow() const {
    return static_cast<int64_t>(std::llround(static_cast<double>(steadyNowMs() - t0) * o.speed));
  }
  int64_t wallFor(int64_t simMs) const {
    return static_cast<int64_t>(std::llround(static_cast<double>(simMs) / o.speed));
  }
  void noteError(const std::string& what, const HttpCall& r) {
    ++self.stats_.errors;
    if (self.stats_.firstError.empty()) self.stats_.firstError = what + ": " + loadgen::describe(r);
  }
  void noteError(const std::string& what) {
    ++self.stats_.errors;
    if (self.stats_.firstError.empty()) self.stats_.firstError = what;
  }

  Status setUp();
  Status addNodeLabels(protocol::HttpClient& client);
  Status addCentralisedAttributes();
  Status readRacks();
  void tick();
  void startClock();
  void endJob(size_t i, const std::string& state, const std::string& note);
  void newApplication(size_t i);
  void submit(size_t i, const std::string& appId);
  void pollState(size_t i);
  void onAmContainers(const std::vector<std::string>& ids);
  void findAmNode(size_t i);
  void registerAm(size_t i);
  void allocate(size_t i);
  void scheduleAllocate(size_t i);
  void startTasks(const std::vector<TaskToStart>& starts);
  void finishAm(size_t i);
};

SlsRun::SlsRun(const Trace& trace, const SlsRunOptions& options)
    : impl_(std::make_unique<Impl>(*this, trace, options)) {
  warnings_ = unsupportedFeatures(trace, options.sls);
  for (const TraceJob& j : trace.jobs) {
    sim::JobResult r;
    r.id = j.id;
    r.queue = j.queue;
    r.user = j.user;
    r.amType = j.amType;
    r.traceStartMs = j.startMs;
    r.traceEndMs = j.endMs;
    r.submitMs = j.startMs;
    r.tasks = static_cast<int>(j.tasks.size());
    results_.push_back(std::move(r));
    counts_.emplace_back();
  }
}

SlsRun::~SlsRun() = default;

Status SlsRun::Impl::addNodeLabels(protocol::HttpClient& client) {
  nlohmann::json labels = nlohmann::json::array();
  std::set<std::string> seen;
  for (const TraceNode& n : trace.nodes) {
    for (const NodeLabelSpec& l : n.labels) {
      if (seen.insert(l.name).second) {
        labels.push_back({{"name", l.name}, {"exclusivity", l.exclusive}});
      }
    }
  }
  if (labels.empty()) return Status::ok();
  nlohmann::json body = {{"nodeLabelsInfo", {{"nodeLabelInfo", labels}}}};
  auto r = client.post("/ws/v1/cluster/add-node-labels", body.dump());
  if (!r) return r.status();
  if (r->status != 200) {
    return invalidArgument("the RM refused the trace's node labels: HTTP {} {}", r->status,
                           r->body.substr(0, 300));
  }
  return Status::ok();
}

Status SlsRun::Impl::setUp() {
  boost::system::error_code ec;
  asio::ip::tcp::resolver resolver(ioc);
  auto found = resolver.resolve(o.rmHost, std::to_string(o.rmPort), ec);
  if (ec || found.empty()) {
    return invalidArgument("--rm {}:{}: {}", o.rmHost, o.rmPort, ec ? ec.message() : "not found");
  }
  rm = *found.begin();
  protocol::HttpClient client(o.rmHost, o.rmPort, 10'000);
  auto info = client.get("/ws/v1/cluster/info");
  if (!info) return info.status().withContext("the RM at --rm");
  SPINDLE_RETURN_IF_ERROR(addNodeLabels(client));
  SPINDLE_RETURN_IF_ERROR(listener.start());
  loadgen::FleetOptions fo;
  fo.heartbeatMs = std::max<int64_t>(1, wallFor(o.sls.nmHeartbeatMs));
  fo.nmVersion = "spindle-sls";
  fleet = std::make_unique<loadgen::NodeFleet>(ioc, rm, fo, listener.port());
  for (size_t i = 0; i < trace.nodes.size(); ++i) {
    const TraceNode& n = trace.nodes[i];
    loadgen::NodeSpec spec;
    spec.nodeId = fmt::format("{}:{}", n.name, o.firstNodePort + static_cast<int>(i % 40'000));
    spec.httpHost = "127.0.0.1";
    spec.memoryMb = n.resource.memoryMb();
    spec.vcores = n.resource.vcores();
    for (const NodeLabelSpec& l : n.labels) spec.labels.push_back(l.name);
    // nm.yarn.io attributes are the NM's own (distributed); the others the admin sets.
    for (const auto& [name, value] : n.attributes) {
      protocol::NodeAttributeRecord a = attributeRecord(name, value);
      if (a.attributePrefix == "nm.yarn.io") spec.attributes.push_back(std::move(a));
    }
    fleet->add(spec);
  }
  RackOf rackOf = [this](const std::string& nodeId) {
    auto it = rackOfNode.find(nodeId);
    return it == rackOfNode.end() ? std::string(kDefaultRack) : it->second;
  };
  for (const TraceJob& tj : trace.jobs) {
    SPINDLE_ASSIGN_OR_RETURN(sim::AmKind kind, sim::amKindFor(tj.amType, o.sls));
    jobs.push_back(std::make_unique<Job>(ioc, rm, tj, kind, o.placement, rackOf));
  }
  self.stats_.nodes = static_cast<int64_t>(trace.nodes.size());
  return Status::ok();
}

// The nodes file's centralised attributes (any prefix but nm.yarn.io), set as the admin sets
// them (`yarn nodeattributes -add`), once the nodes have registered.
Status SlsRun::Impl::addCentralisedAttributes() {
  protocol::NodesToAttributesMappingRequest req;
  req.operation = "ADD";
  for (const TraceNode& n : trace.nodes) {
    protocol::NodeToAttributes host{n.name, {}};
    for (const auto& [name, value] : n.attributes) {
      protocol::NodeAttributeRecord a = attributeRecord(name, value);
      if (a.attributePrefix != "nm.yarn.io") host.nodeAttributes.push_back(std::move(a));
    }
    if (!host.nodeAttributes.empty()) req.nodesToAttributes.push_back(std::move(host));
  }
  if (req.nodesToAttributes.empty()) return Status::ok();
  protocol::HttpClient client(o.rmHost, o.rmPort, 10'000);
  auto r = client.post("/ws/v1/cluster/node-attributes/mapping", protocol::toJson(req).dump());
  if (!r) return r.status();
  if (r->status != 200) {
    return invalidArgument("the RM refused the nodes file's attributes: HTTP {} {}", r->status,
                           r->body.substr(0, 300));
  }
  return Status::ok();
}

// The racks the RM put the nodes in (it has no topology mapping of the trace's).
Status SlsRun::Impl::readRacks() {
  protocol::HttpClient client(o.rmHost, o.rmPort, 10'000);
  auto r = client.get("/ws/v1/cluster/nodes");
  if (!r) return r.status();
  auto j = nlohmann::json::parse(r->body, nullptr, false);
  if (r->status != 200 || !j.is_object()) return internalError("GET /ws/v1/cluster/nodes failed");
  for (const auto& n : j["nodes"]["node"]) {
    rackOfNode[n.value("id", "")] = n.value("rack", std::string(kDefaultRack));
  }
  std::set<std::string> differ;
  for (size_t i = 0; i < trace.nodes.size(); ++i) {
    const std::string id =
        fmt::format("{}:{}", trace.nodes[i].name, o.firstNodePort + static_cast<int>(i % 40'000));
    auto it = rackOfNode.find(id);
    if (it != rackOfNode.end() && it->second != trace.nodes[i].rack) {
      differ.insert(trace.nodes[i].rack);
    }
  }
  if (!differ.empty()) {
    std::string racks;
    for (const std::string& r2 : differ) racks += (racks.empty() ? "" : ", ") + r2;
    self.warnings_.push_back(fmt::format(
        "the RM puts the nodes of rack(s) {} on other racks (it has no topology mapping): "
        "rack-local asks for them are served node-local or off-switch only, and rack-scoped "
        "placement constraints see the RM's racks",
        racks));
  }
  return Status::ok();
}

Status SlsRun::run() {
  Impl& m = *impl_;
  SPINDLE_RETURN_IF_ERROR(m.setUp());
  m.registerDeadline = steadyNowMs() + m.o.registerTimeoutMs;
  m.fleet->start();
  m.tick();
  m.ioc.run();
  m.listener.stop();
  const loadgen::FleetCounters& f = m.fleet->counters();
  stats_.heartbeats = f.heartbeats;
  stats_.heartbeatErrors = f.heartbeatErrors;
  if (!m.fleet->firstError.empty() && stats_.firstError.empty()) {
    stats_.firstError = m.fleet->firstError;
  }
  stats_.errors += f.heartbeatErrors;
  if (m.t0 >= 0) stats_.wallSeconds = static_cast<double>(steadyNowMs() - m.t0) / 1000.0;
  for (size_t i = 0; i < m.jobs.size(); ++i) {
    counts_[i].tasksDone = m.jobs[i]->am.tasksDone();
    counts_[i].rejectedTasks = m.jobs[i]->am.rejectedTasks();
    counts_[i].containers = m.jobs[i]->am.allocated();
    if (results_[i].endMs) stats_.makespanMs = std::max(stats_.makespanMs, *results_[i].endMs);
  }
  return m.startError;
}

void SlsRun::Impl::tick() {
  const int64_t now = steadyNowMs();
  const loadgen::FleetCounters& f = fleet->counters();
  if (t0 < 0) {
    if (f.shutdown > 0 || now > registerDeadline) {
      startError =
          internalError("{} of {} simulated NMs registered{}", f.nmsRegistered, trace.nodes.size(),
                        fleet->firstError.empty() ? "" : ": " + fleet->firstError);
      ioc.stop();
      return;
    }
    if (f.nmsRegistered == static_cast<int64_t>(trace.nodes.size())) {
      Status s = addCentralisedAttributes();
      if (s.isOk()) s = readRacks();
      if (!s.isOk()) {
        startError = s;
        ioc.stop();
        return;
      }
      startClock();
    }
  } else if (ended == jobs.size()) {
    ioc.stop();
    return;
  } else if (now - t0 > o.timeoutMs) {
    self.stats_.timedOut = true;
    ioc.stop();
    return;
  }
  control.expires_after(std::chrono::milliseconds(20));
  control.async_wait([this](boost::system::error_code ec) {
    if (!ec) tick();
  });
}

void SlsRun::Impl::startClock() {
  t0 = steadyNowMs();
  for (size_t i = 0; i < jobs.size(); ++i) {
    Job& job = *jobs[i];
    job.timer.expires_at(asio::steady_timer::clock_type::now() +
                         std::chrono::milliseconds(wallFor(job.trace.startMs)));
    job.timer.async_wait([this, i](boost::system::error_code ec) {
      if (!ec) newApplication(i);
    });
  }
}

void SlsRun::Impl::endJob(size_t i, const std::string& state, const std::string& note) {
  Job& job = *jobs[i];
  if (job.ended) return;
  job.ended = true;
  job.timer.cancel();
  job.pollTimer.cancel();
  ++ended;
  sim::JobResult& r = self.results_[i];
  r.state = state;
  r.note = note;
  r.endMs = simNow();
}

void SlsRun::Impl::newApplication(size_t i) {
  Job& job = *jobs[i];
  self.results_[i].submitMs = simNow();
  const std::string user = "?user.name=" + queryValue(job.trace.user);
  job.conn.call(http::verb::post, "/ws/v1/cluster/apps/new-application" + user, "",
                [this, i](const HttpCall& c) {
                  auto j = c.error.empty() && c.status == 200
                               ? nlohmann::json::parse(c.body, nullptr, false)
                               : nlohmann::json();
                  if (!j.is_object() || !j.contains("application-id")) {
                    noteError("new-application for job " + jobs[i]->trace.id, c);
                    return endJob(i, "REJECTED", "new-application: " + loadgen::describe(c));
                  }
                  submit(i, j["application-id"].get<std::string>());
                });
}

void SlsRun::Impl::submit(size_t i, const std::string& appId) {
  Job& job = *jobs[i];
  self.counts_[i].appId = appId;
  jobByApp[appId] = i;
  protocol::SubmissionContext ctx;
  ctx.applicationId = appId;
  ctx.applicationName = job.trace.id;
  ctx.applicationType = "SLS-" + job.trace.amType;
  ctx.queue = job.trace.queue.empty() ? "default" : job.trace.queue;
  ctx.priority = job.trace.priority;
  ctx.resource = {job.trace.amResource.memoryMb(), job.trace.amResource.vcores()};
  ctx.amContainerSpec.commands = {"true"};  // never run: the simulated NM only reports it
  job.conn.call(http::verb::post, "/ws/v1/cluster/apps?user.name=" + queryValue(job.trace.user),
                protocol::toJson(ctx).dump(), [this, i](const HttpCall& c) {
                  if (!c.error.empty() || c.status != 202) {
                    noteError("submit job " + jobs[i]->trace.id, c);
                    return endJob(i, "REJECTED", "submit: " + loadgen::describe(c));
                  }
                  jobs[i]->submitted = true;
                  self.results_[i].state = "ACCEPTED";
                  pollState(i);
                });
}

// While its AM does not run, the app's state every second: the RM may refuse or fail it.
void SlsRun::Impl::pollState(size_t i) {
  Job& job = *jobs[i];
  if (job.ended || job.registered) return;
  job.conn.call(http::verb::get, "/ws/v1/cluster/apps/" + self.counts_[i].appId + "/state", "",
                [this, i](const HttpCall& c) {
                  Job& jb = *jobs[i];
                  if (jb.ended || jb.registered) return;
                  auto j = c.error.empty() && c.status == 200
                               ? nlohmann::json::parse(c.body, nullptr, false)
                               : nlohmann::json();
                  const std::string state = j.is_object() ? j.value("state", "") : "";
                  if (state == "FAILED" || state == "KILLED" || state == "FINISHED") {
                    noteError(fmt::format("job {} ({}) ended {} before its AM ran", jb.trace.id,
                                          self.counts_[i].appId, state));
                    return endJob(i, state, "the RM ended the application");
                  }
                  jb.pollTimer.expires_after(std::chrono::seconds(1));
                  jb.pollTimer.async_wait([this, i](boost::system::error_code ec) {
                    if (!ec) pollState(i);
                  });
                });
}

void SlsRun::Impl::onAmContainers(const std::vector<std::string>& ids) {
  for (const std::string& cid : ids) {
    auto attempt = protocol::attemptOfContainer(cid);
    if (!attempt) continue;
    auto it = jobByApp.find(protocol::toString(attempt->app));
    if (it == jobByApp.end()) continue;
    const size_t i = it->second;
    Job& job = *jobs[i];
    if (job.ended || attempt->attempt <= job.am.attempt()) continue;
    if (Status s = job.am.amStarted(cid); !s.isOk()) {
      noteError("AM container " + cid + ": " + s.message());
      continue;
    }
    ++self.stats_.amContainers;
    job.attemptId = protocol::toString(*attempt);
    job.amContainerId = cid;
    job.registered = false;
    job.finishing = false;
    job.responseId = 0;
    job.pending = {};
    if (!self.results_[i].startMs) self.results_[i].startMs = simNow();
    self.results_[i].state = "RUNNING";
    findAmNode(i);
  }
}

// The node the RM put the AM container on (appattempts' nodeId): its simulated NM runs it.
void SlsRun::Impl::findAmNode(size_t i) {
  Job& job = *jobs[i];
  job.conn.call(http::verb::get, "/ws/v1/cluster/apps/" + self.counts_[i].appId + "/appattempts",
                "", [this, i](const HttpCall& c) {
                  Job& jb = *jobs[i];
                  auto j = c.error.empty() && c.status == 200
                               ? nlohmann::json::parse(c.body, nullptr, false)
                               : nlohmann::json();
                  std::string node;
                  if (j.is_object()) {
                    for (const auto& a : j["appAttempts"]["appAttempt"]) {
                      if (a.value("containerId", "") == jb.amContainerId) {
                        node = a.value("nodeId", "");
                      }
                    }
                  }
                  if (node.empty()) return noteError("appattempts of " + jb.trace.id, c);
                  jb.amNode = node;
                  fleet->runOn(node, jb.amContainerId, loadgen::kRunsForever,
                               jb.trace.amResource.memoryMb(), jb.trace.amResource.vcores());
                  registerAm(i);
                });
}

void SlsRun::Impl::registerAm(size_t i) {
  Job& job = *jobs[i];
  protocol::RegisterApplicationMasterRequest r;
  r.applicationAttemptId = job.attemptId;
  r.host = "127.0.0.1";
  r.rpcPort = 0;
  job.conn.call(http::verb::post, "/rpc/v1/am/register", protocol::toJson(r).dump(),
                [this, i](const HttpCall& c) {
                  Job& jb = *jobs[i];
                  if (!c.error.empty() || c.status != 200) {
                    noteError("register the AM of " + jb.trace.id, c);
                    return endJob(i, "FAILED", "AM registration: " + loadgen::describe(c));
                  }
                  jb.registered = true;
                  jb.responseId = 0;
                  allocate(i);
                });
}

void SlsRun::Impl::scheduleAllocate(size_t i) {
  Job& job = *jobs[i];
  job.timer.expires_after(
      std::chrono::milliseconds(std::max<int64_t>(1, wallFor(o.sls.amHeartbeatMs))));
  job.timer.async_wait([this, i](boost::system::error_code ec) {
    if (!ec) allocate(i);
  });
}

void SlsRun::Impl::startTasks(const std::vector<TaskToStart>& starts) {
  const int64_t now = steadyNowMs();
  for (const TaskToStart& t : starts) {
    fleet->runOn(t.nodeId, t.containerId, now + wallFor(t.durationMs), t.resource.memory,
                 t.resource.vCores);
  }
}

void SlsRun::Impl::allocate(size_t i) {
  Job& job = *jobs[i];
  if (job.ended || job.finishing || !job.registered) return;
  TraceAm::Beat b = job.am.beat(simNow());
  if (b.restart) return;  // the RM starts a new attempt; its AM container comes to the listener
  startTasks(b.starts);
  auto append = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  append(job.pending.asks, b.asks);
  append(job.pending.schedulingRequests, b.schedulingRequests);
  append(job.pending.releases, b.releases);
  if (b.finished) return finishAm(i);
  protocol::AllocateRequest r;
  r.applicationAttemptId = job.attemptId;
  r.responseId = job.responseId;
  r.progress = job.trace.tasks.empty() ? 1.0
                                       : static_cast<double>(job.am.tasksDone()) /
                                             static_cast<double>(job.trace.tasks.size());
  r.ask = std::move(job.pending.asks);
  r.schedulingRequests = std::move(job.pending.schedulingRequests);
  r.release = std::move(job.pending.releases);
  job.pending = {};
  job.conn.call(http::verb::post, "/rpc/v1/am/allocate", protocol::toJson(r).dump(),
                [this, i, r](const HttpCall& c) {
                  Job& jb = *jobs[i];
                  if (jb.ended) return;
                  auto resp = c.error.empty() && c.status == 200
                                  ? protocol::decode<protocol::AllocateResponse>(c.body)
                                  : Result<protocol::AllocateResponse>(internalError("failed"));
                  if (!resp) {
                    noteError("allocate for " + jb.trace.id, c);
                    // Sent again with the next call: asks are absolute, releases idempotent.
                    jb.pending.asks.insert(jb.pending.asks.begin(), r.ask.begin(), r.ask.end());
                    jb.pending.releases.insert(jb.pending.releases.begin(), r.release.begin(),
                                               r.release.end());
                    return scheduleAllocate(i);
                  }
                  if (resp->amCommand) {
                    noteError(fmt::format("allocate for {} answered {}", jb.trace.id,
                                          protocol::toString(*resp->amCommand)));
                    if (*resp->amCommand == protocol::AMCommand::AM_SHUTDOWN) {
                      return endJob(i, "FAILED", "AM_SHUTDOWN");
                    }
                    return registerAm(i);
                  }
                  ++self.stats_.allocateCalls;
                  self.stats_.allocations += static_cast<int64_t>(resp->allocatedContainers.size());
                  self.stats_.completedReturned +=
                      static_cast<int64_t>(resp->completedContainerStatuses.size());
                  jb.responseId = resp->responseId;
                  if (Status s = jb.am.onAllocateResponse(*resp, simNow()); !s.isOk()) {
                    noteError("allocate response for " + jb.trace.id + ": " + s.message());
                  }
                  // The AM acts on the answer at once (a real AM launches what it got).
                  TraceAm::Beat now = jb.am.beat(simNow());
                  if (now.restart) return;
                  startTasks(now.starts);
                  jb.pending = std::move(now);
                  jb.pending.starts.clear();
                  if (jb.pending.finished) return finishAm(i);
                  scheduleAllocate(i);
                });
}

void SlsRun::Impl::finishAm(size_t i) {
  Job& job = *jobs[i];
  if (job.finishing) return;
  job.finishing = true;
  protocol::FinishApplicationMasterRequest r;
  r.applicationAttemptId = job.attemptId;
  r.finalApplicationStatus = protocol::FinalApplicationStatus::SUCCEEDED;
  job.conn.call(http::verb::post, "/rpc/v1/am/finish", protocol::toJson(r).dump(),
                [this, i](const HttpCall& c) {
                  Job& jb = *jobs[i];
                  if (!c.error.empty() || c.status != 200) {
                    noteError("finish the AM of " + jb.trace.id, c);
                    return endJob(i, "FAILED", "unregister: " + loadgen::describe(c));
                  }
                  // The AM process exits: its container completes on its node.
                  fleet->endNow(jb.amNode, jb.amContainerId);
                  endJob(i, "FINISHED", "");
                });
}

}  // namespace spindle::sls
