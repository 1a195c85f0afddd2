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
#include "sls/sls_run_impl.h"
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

// The racks the RM put the nodes in (its net.topology.* mapping), compared with the trace's.
Status SlsRun::Impl::readRacks() {
  protocol::HttpClient client(o.rmHost, o.rmPort, 10'000);
  auto r = client.get("/ws/v1/cluster/nodes");
  if (!r) return r.status();
  auto j = nlohmann::json::parse(r->body, nullptr, false);
  if (r->status != 200 || !j.is_object()) return internalError("GET /ws/v1/cluster/nodes failed");
  for (const auto& n : j["nodes"]["node"]) {
    rackOfNode[n.value("id", "")] = n.value("rack", std::string(kDefaultRack));
  }
  size_t differ = 0;
  std::set<std::string> traceRacks, differRacks;
  for (size_t i = 0; i < trace.nodes.size(); ++i) {
    const std::string id =
        fmt::format("{}:{}", trace.nodes[i].name, o.firstNodePort + static_cast<int>(i % 40'000));
    const std::string rack =
        trace.nodes[i].rack.empty() ? std::string(kDefaultRack) : trace.nodes[i].rack;
    traceRacks.insert(rack);
    auto it = rackOfNode.find(id);
    if (it != rackOfNode.end() && it->second != rack) {
      ++differ;
      differRacks.insert(rack);
    }
  }
  if (differ > 0) {
    self.warnings_.push_back(fmt::format(
        "the RM puts {} of the trace's {} node(s) ({} of its {} rack(s)) on other racks than the "
        "trace does: rack-local asks for them are not served rack-local, and rack-scoped "
        "placement constraints count the RM's racks; give the RM the trace's topology "
        "(spindle sls --write-topology FILE, then net.topology.table.file.name = FILE)",
        differ, trace.nodes.size(), differRacks.size(), traceRacks.size()));
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

}  // namespace spindle::sls
