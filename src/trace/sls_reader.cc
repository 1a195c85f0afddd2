#include "trace/sls_reader.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <unordered_set>

#include "placement/evaluator.h"
#include "placement/spec_parser.h"
#include "trace/job_policy.h"
#include "trace/json_fields.h"
#include "trace/json_stream.h"
#include "trace/nodes_reader.h"

namespace spindle {
namespace {

using nlohmann::json;

// Keys AMDefinitionSLS reads (plus "am.<type>" for configured resource types).
const std::set<std::string, std::less<>> kJobKeys = {
    "am.type",         "yarn.sls.am.type", "job.start.ms",
    "job.end.ms",      "job.queue.name",   "job.id",
    "job.user",        "job.count",        "job.label.expression",
    "job.tasks",       "am.memory-mb",     "am.memory",
    "am.vcores",       "num.nodes",        "num.racks",
    "job.deadline.ms", "job.tags",         "job.placement.spec"};
// Keys TaskContainerDefinition reads (plus "container.<type>").
const std::set<std::string, std::less<>> kTaskKeys = {"count",
                                                      "container.host",
                                                      "container.hosts",
                                                      "container.start.ms",
                                                      "container.end.ms",
                                                      "container.duration.ms",
                                                      "duration.ms",
                                                      "container.priority",
                                                      "container.type",
                                                      "container.execution.type",
                                                      "container.allocation.id",
                                                      "container.request.delay",
                                                      "container.memory-mb",
                                                      "container.memory",
                                                      "container.vcores",
                                                      "container.tags",
                                                      "container.placement.spec"};

struct ReadState {
  const TraceReadOptions& options;
  Trace& trace;
  int64_t jobSeq = 0;      // job objects seen across all files, for generated ids
  int64_t containers = 0;  // containers of the jobs kept so far, AMs included
  std::vector<TraceNode> headerNodes;
  std::set<std::string> warnedKeys;  // per file
};

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Result<int64_t> nonNegativeOr(const JsonFields& f, std::string_view key, int64_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, f.intOr(key, def));
  if (v < 0) return f.error(key, "must not be negative, got {}", v);
  return v;
}

// A time field within +-kMaxTraceTimeMs (trace.h), so the simulator's time sums cannot overflow.
Status checkTime(const JsonFields& f, std::string_view key, int64_t v) {
  if (v >= -kMaxTraceTimeMs && v <= kMaxTraceTimeMs) return Status::ok();
  return f.error(key, "{} ms is beyond the largest time a trace may give ({} ms)", v,
                 kMaxTraceTimeMs);
}

Result<std::optional<int64_t>> optTime(const JsonFields& f, std::string_view key) {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, f.optInt(key));
  if (v) SPINDLE_RETURN_IF_ERROR(checkTime(f, key, *v));
  return v;
}

// Overrides `r` from `<prefix><type>` keys; `oldMemoryKey` is the 2.x spelling of memory, read
// first so that the newer "<prefix>memory-mb" wins when both are given.
Status readResourceOverrides(const JsonFields& f, const ResourceTypes& types,
                             std::string_view prefix, std::string_view oldMemoryKey, Resource& r) {
  if (f.has(oldMemoryKey)) {
    SPINDLE_ASSIGN_OR_RETURN(int64_t v, nonNegativeOr(f, oldMemoryKey, 0));
    r.set(kMemoryIndex, v);
  }
  for (int i = 0; i < types.count(); ++i) {
    const std::string key = fmt::format("{}{}", prefix, types.info(i).name);
    if (!f.has(key)) continue;
    SPINDLE_ASSIGN_OR_RETURN(int64_t v, nonNegativeOr(f, key, 0));
    r.set(i, v);
  }
  return Status::ok();
}

// TaskContainerDefinition: container.duration.ms, else the legacy duration.ms, else
// container.end.ms - container.start.ms; the result must be > 0.
Result<int64_t> readDuration(const JsonFields& f) {
  for (std::string_view key : {"container.duration.ms", "duration.ms"}) {
    if (!f.has(key)) continue;
    SPINDLE_ASSIGN_OR_RETURN(int64_t d, f.requiredInt(key));
    if (d <= 0) return f.error(key, "duration must be > 0, got {}", d);
    SPINDLE_RETURN_IF_ERROR(checkTime(f, key, d));
    return d;
  }
  const bool hasStart = f.has("container.start.ms");
  const bool hasEnd = f.has("container.end.ms");
  if (!hasStart && !hasEnd) {
    return f.error("container.duration.ms",
                   "missing: give container.start.ms and container.end.ms, "
                   "container.duration.ms or duration.ms");
  }
  if (!hasStart) return f.error("container.start.ms", "missing (container.end.ms is given)");
  if (!hasEnd) return f.error("container.end.ms", "missing (container.start.ms is given)");
  SPINDLE_ASSIGN_OR_RETURN(int64_t start, f.requiredInt("container.start.ms"));
  SPINDLE_ASSIGN_OR_RETURN(int64_t end, f.requiredInt("container.end.ms"));
  SPINDLE_RETURN_IF_ERROR(checkTime(f, "container.start.ms", start));
  SPINDLE_RETURN_IF_ERROR(checkTime(f, "container.end.ms", end));
  if (end - start <= 0) {
    return f.error("container.end.ms", "duration must be > 0, got {} - {} = {}", end, start,
                   end - start);
  }
  SPINDLE_RETURN_IF_ERROR(checkTime(f, "container.end.ms", end - start));
  return end - start;
}

Result<TaskType> readTaskType(const JsonFields& f) {
  SPINDLE_ASSIGN_OR_RETURN(std::string type, f.stringOr("container.type", "map"));
  std::string t = lower(type);
  if (t == "map" || t == "stream") return TaskType::kMap;  // stream: one kind of container
  if (t == "reduce") return TaskType::kReduce;
  return f.error("container.type", "unknown type '{}' (expected map or reduce)", type);
}

Result<ExecutionType> readExecutionType(const JsonFields& f) {
  SPINDLE_ASSIGN_OR_RETURN(std::string type, f.stringOr("container.execution.type", "GUARANTEED"));
  std::string t = lower(type);
  if (t == "guaranteed") return ExecutionType::kGuaranteed;
  if (t == "opportunistic") return ExecutionType::kOpportunistic;
  return f.error("container.execution.type",
                 "unknown execution type '{}' (expected GUARANTEED or OPPORTUNISTIC)", type);
}

void warnUnknownKeys(const json& obj, const std::set<std::string, std::less<>>& known,
                     std::string_view extraPrefix, const ResourceTypes& types,
                     std::string_view where, ReadState& st) {
  for (const auto& [key, value] : obj.items()) {
    if (known.count(key)) continue;
    bool isExtra = false;
    for (int i = kVcoresIndex + 1; i < types.count(); ++i) {
      isExtra |= key == fmt::format("{}{}", extraPrefix, types.info(i).name);
    }
    if (isExtra || !st.warnedKeys.insert(key).second) continue;
    st.trace.warnings.push_back(fmt::format("{}: ignored unknown key '{}'", where, key));
  }
}

// Spindle's placement keys (SLS has none): allocation tags as an array of strings or one
// comma-separated string; each tag non-empty, without whitespace, ',' or ':' (the PlacementSpec
// grammar's separators).
// container.hosts (Spindle): every preferred host, "/rack/host" each, as a map asks for its
// input block's replicas. The first is the task's host unless container.host names it; the rest
// are asked for besides (at most kMaxTaskHosts in all).
constexpr size_t kMaxTaskHosts = 16;
Status readHosts(const JsonFields& f, TraceTask& task) {
  if (!f.has("container.hosts")) return Status::ok();
  const json& v = f.at("container.hosts");
  if (!v.is_array()) {
    return f.error("container.hosts", "expected an array of \"/rack/host\" strings, got {}",
                   briefJson(v));
  }
  if (v.size() > kMaxTaskHosts) {
    return f.error("container.hosts", "{} hosts; at most {} per task", v.size(), kMaxTaskHosts);
  }
  for (const json& h : v) {
    if (!h.is_string() || h.get<std::string>().empty()) {
      return f.error("container.hosts", "expected a \"/rack/host\" string, got {}", briefJson(h));
    }
    HostPath hp = splitHostPath(h.get<std::string>());
    if (task.host.empty()) {
      task.host = hp.host;
      task.rack = hp.rack;
    } else if (hp.host != task.host) {
      task.otherHosts.push_back({hp.host, hp.rack});
    }
  }
  return Status::ok();
}

Status readTags(const JsonFields& f, std::string_view key, std::vector<std::string>& out) {
  if (!f.has(key)) return Status::ok();
  const json& v = f.at(key);
  std::vector<std::string> raw;
  if (v.is_string()) {
    const std::string text = v.get<std::string>();
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = std::min(text.find(',', start), text.size());
      std::string item = text.substr(start, comma - start);
      const size_t b = item.find_first_not_of(' ');
      const size_t e = item.find_last_not_of(' ');
      raw.push_back(b == std::string::npos ? "" : item.substr(b, e - b + 1));
      start = comma + 1;
    }
  } else if (v.is_array()) {
    for (const json& t : v) {
      if (!t.is_string()) return f.error(key, "expected tag strings, got {}", briefJson(t));
      raw.push_back(t.get<std::string>());
    }
  } else {
    return f.error(key, "expected an array of tags or a comma-separated string, got {}",
                   briefJson(v));
  }
  out.clear();
  for (const std::string& t : raw) {
    if (t.empty()) return f.error(key, "empty allocation tag");
    if (t.find_first_of(" \t,:") != std::string::npos) {
      return f.error(key, "allocation tag '{}' contains whitespace, ',' or ':'", t);
    }
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return Status::ok();
}

// A constraint expression (placement/spec_parser.h parseExpression) that the evaluator accepts
// (known namespaces, cardinality bounds), kept as written.
Status readPlacementSpec(const JsonFields& f, std::string_view key, std::string& out) {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> spec, f.optString(key));
  if (!spec) return Status::ok();
  Result<placement::PlacementConstraint> c = placement::parseExpression(*spec);
  if (!c) return f.error(key, "unparsable placement spec '{}': {}", *spec, c.status().message());
  if (Status valid = placement::validateConstraint(*c); !valid.isOk()) {
    return f.error(key, "invalid placement spec '{}': {}", *spec, valid.message());
  }
  out = *spec;
  return Status::ok();
}

Result<std::vector<TraceTask>> parseTaskGroup(const JsonFields& f, const TraceReadOptions& o,
                                              const TraceTask& jobPlacement) {
  TraceTask task;
  task.allocationTags = jobPlacement.allocationTags;
  task.placementSpec = jobPlacement.placementSpec;
  SPINDLE_RETURN_IF_ERROR(readTags(f, "container.tags", task.allocationTags));
  SPINDLE_RETURN_IF_ERROR(readPlacementSpec(f, "container.placement.spec", task.placementSpec));
  SPINDLE_ASSIGN_OR_RETURN(int64_t count, f.intOr("count", 1));
  if (count < 1) return f.error("count", "must be >= 1, got {}", count);
  if (count > o.sls.maxContainersPerJob) {
    return f.error("count", "{} containers exceed spindle.sls.max-containers-per-job ({})", count,
                   o.sls.maxContainersPerJob);
  }
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> host, f.optString("container.host"));
  if (host) {
    HostPath hp = splitHostPath(*host);
    task.host = hp.host;
    task.rack = hp.rack;
  }
  SPINDLE_RETURN_IF_ERROR(readHosts(f, task));
  SPINDLE_ASSIGN_OR_RETURN(task.durationMs, readDuration(f));
  SPINDLE_ASSIGN_OR_RETURN(int64_t priority, f.intOr("container.priority", 20));
  if (priority < std::numeric_limits<int32_t>::min() ||
      priority > std::numeric_limits<int32_t>::max()) {
    return f.error("container.priority", "out of the 32-bit range: {}", priority);
  }
  task.priority = static_cast<int32_t>(priority);
  SPINDLE_ASSIGN_OR_RETURN(task.type, readTaskType(f));
  SPINDLE_ASSIGN_OR_RETURN(task.executionType, readExecutionType(f));
  SPINDLE_ASSIGN_OR_RETURN(task.allocationId, f.intOr("container.allocation.id", -1));
  SPINDLE_ASSIGN_OR_RETURN(task.requestDelayMs, nonNegativeOr(f, "container.request.delay", 0));
  SPINDLE_RETURN_IF_ERROR(checkTime(f, "container.request.delay", task.requestDelayMs));
  task.resource = o.sls.containerResource;
  SPINDLE_RETURN_IF_ERROR(
      readResourceOverrides(f, o.types, "container.", "container.memory", task.resource));
  return std::vector<TraceTask>(static_cast<size_t>(count), task);
}

Result<std::string> readAmType(const JsonFields& f, const TraceReadOptions& o) {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> a, f.optString("am.type"));
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> b, f.optString("yarn.sls.am.type"));
  if (a && b && *a != *b) {
    return f.error("am.type", "'{}' contradicts yarn.sls.am.type '{}'", *a, *b);
  }
  std::string type = a ? *a : (b ? *b : "mapreduce");
  const std::string_view key = a || !b ? "am.type" : "yarn.sls.am.type";
  if (!o.sls.amTypes.empty() && !o.sls.amTypes.count(type)) {
    std::string known;
    for (const auto& [name, cls] : o.sls.amTypes) known += (known.empty() ? "" : ", ") + name;
    return f.error(key, "unknown AM type '{}' (registered with yarn.sls.am.type.<name>: {})", type,
                   known);
  }
  return type;
}

// The job's fields except id and tasks.
Status parseJobFields(const JsonFields& f, const TraceReadOptions& o, TraceJob& job) {
  SPINDLE_ASSIGN_OR_RETURN(job.startMs, f.requiredInt("job.start.ms"));
  if (job.startMs < 0) return f.error("job.start.ms", "must not be negative, got {}", job.startMs);
  SPINDLE_RETURN_IF_ERROR(checkTime(f, "job.start.ms", job.startMs));
  SPINDLE_ASSIGN_OR_RETURN(job.endMs, optTime(f, "job.end.ms"));
  // Spindle's key: the job reserves resources ahead of its start to finish by this time.
  SPINDLE_ASSIGN_OR_RETURN(job.deadlineMs, optTime(f, "job.deadline.ms"));
  if (job.deadlineMs) {
    if (*job.deadlineMs <= job.startMs) {
      return f.error("job.deadline.ms", "must be after job.start.ms ({}), got {}", job.startMs,
                     *job.deadlineMs);
    }
    job.wantsReservation = true;
  }
  {
    Result<std::string> queue = f.requiredString("job.queue.name");
    if (!queue) return queue.status();
    if (queue->empty()) return f.error("job.queue.name", "empty queue name");
    job.queue = *queue;
  }
  SPINDLE_RETURN_IF_ERROR(checkKnownQueue(job.queue, o, "job.queue.name"));
  {
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("job.user", "default"), job.user));
    SPINDLE_RETURN_IF_ERROR(
        copyString(f.stringOr("job.label.expression", ""), job.labelExpression));
    SPINDLE_RETURN_IF_ERROR(copyString(readAmType(f, o), job.amType));
  }
  job.amResource = o.sls.amResource;
  SPINDLE_RETURN_IF_ERROR(readResourceOverrides(f, o.types, "am.", "am.memory", job.amResource));
  return Status::ok();
}

Result<std::vector<TraceJob>> parseJob(const JsonFields& f, const std::string& id, ReadState& st,
                                       std::string_view where) {
  const TraceReadOptions& o = st.options;
  TraceJob job;
  job.id = id;
  if (f.has("job.id") && !f.at("job.id").is_string() && !f.at("job.id").is_number_integer()) {
    return f.error("job.id", "expected a string, got {}", briefJson(f.at("job.id")));
  }
  SPINDLE_RETURN_IF_ERROR(parseJobFields(f, o, job));
  SPINDLE_ASSIGN_OR_RETURN(int64_t copies, f.intOr("job.count", 1));
  if (copies < 1) return f.error("job.count", "must be >= 1, got {}", copies);
  TraceTask jobPlacement;  // job.tags / job.placement.spec: every task group's default
  SPINDLE_RETURN_IF_ERROR(readTags(f, "job.tags", jobPlacement.allocationTags));
  SPINDLE_RETURN_IF_ERROR(readPlacementSpec(f, "job.placement.spec", jobPlacement.placementSpec));
  if (f.has("job.tasks")) {
    const json& tasks = f.at("job.tasks");
    if (!tasks.is_array())
      return f.error("job.tasks", "expected an array, got {}", briefJson(tasks));
    for (size_t i = 0; i < tasks.size(); ++i) {
      const std::string prefix = fmt::format("job.tasks[{}].", i);
      if (!tasks[i].is_object()) {
        return invalidArgument("field job.tasks[{}]: expected an object, got {}", i,
                               briefJson(tasks[i]));
      }
      JsonFields tf(tasks[i], prefix);
      SPINDLE_ASSIGN_OR_RETURN(std::vector<TraceTask> group, parseTaskGroup(tf, o, jobPlacement));
      if (group.size() > static_cast<size_t>(o.sls.maxContainersPerJob) - job.tasks.size()) {
        return tf.error("count",
                        "the job's containers exceed spindle.sls.max-containers-per-job ({})",
                        o.sls.maxContainersPerJob);
      }
      job.tasks.insert(job.tasks.end(), group.begin(), group.end());
      warnUnknownKeys(tasks[i], kTaskKeys, "container.", o.types, where, st);
    }
  }
  warnUnknownKeys(f.json(), kJobKeys, "am.", o.types, where, st);
  // Every copy runs its AM and its tasks; the whole trace stays within max-containers.
  const int64_t perCopy = 1 + static_cast<int64_t>(job.tasks.size());
  if (copies > (o.sls.maxContainers - st.containers) / perCopy) {
    return f.error("job.count",
                   "{} copies of {} container(s) would take the trace beyond "
                   "spindle.sls.max-containers ({}; {} before this job)",
                   copies, perCopy, o.sls.maxContainers, st.containers);
  }
  st.containers += copies * perCopy;
  std::vector<TraceJob> out;
  if (copies == 1) {
    out.push_back(job);
    return out;
  }
  for (int64_t k = 1; k <= copies; ++k) {
    TraceJob copy = job;
    copy.id = fmt::format("{}_{}", id, k);
    out.push_back(copy);
  }
  return out;
}

bool isHeader(const JsonFields& f) {
  return f.has("num.nodes") && !f.has("job.start.ms") && !f.has("job.queue.name") &&
         !f.has("job.tasks");
}

Status readHeader(const JsonFields& f, ReadState& st) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t nodes, f.requiredInt("num.nodes"));
  SPINDLE_ASSIGN_OR_RETURN(int64_t racks, f.intOr("num.racks", 1));
  if (nodes < 1) return f.error("num.nodes", "must be >= 1, got {}", nodes);
  if (nodes > st.options.sls.maxNodes) {
    return f.error("num.nodes", "{} nodes exceed spindle.sls.max-nodes ({})", nodes,
                   st.options.sls.maxNodes);
  }
  if (racks < 1) return f.error("num.racks", "must be >= 1, got {}", racks);
  std::vector<TraceNode> gen = generateNodes(nodes, racks, st.options.sls.nodeResource);
  st.headerNodes.insert(st.headerNodes.end(), gen.begin(), gen.end());
  return Status::ok();
}

Status parseObject(const JsonObject& obj, std::string_view source, int& jobIndex, ReadState& st) {
  JsonFields f(obj.value, "");
  if (isHeader(f)) {
    return readHeader(f, st).withContext(
        fmt::format("{}: header object (line {})", source, obj.line));
  }
  ++jobIndex;
  ++st.jobSeq;
  std::string id = fmt::format("job_{}", st.jobSeq);
  if (f.has("job.id") && (f.at("job.id").is_string() || f.at("job.id").is_number_integer())) {
    id = f.at("job.id").is_string() ? f.at("job.id").get<std::string>() : f.at("job.id").dump();
  }
  const std::string where = fmt::format("{}: job #{} (id {})", source, jobIndex, id);
  if (f.has("num.nodes")) {
    Status header = readHeader(f, st);
    if (!header.isOk()) return handleBadJob(header.withContext(where), st.options, st.trace);
  }
  Result<std::vector<TraceJob>> jobs = parseJob(f, id, st, where);
  if (!jobs) return handleBadJob(jobs.status().withContext(where), st.options, st.trace);
  for (TraceJob& j : *jobs) st.trace.jobs.push_back(std::move(j));
  return Status::ok();
}

Status parseFile(std::string_view text, std::string_view source, ReadState& st) {
  st.warnedKeys.clear();
  int jobIndex = 0;
  return forEachJsonObject(
      text, source, [&](const JsonObject& obj) { return parseObject(obj, source, jobIndex, st); });
}

// Header nodes first, then task hosts; each host once (SLS collects them in a set).
void deriveNodes(ReadState& st) {
  std::vector<TraceNode> nodes;
  std::unordered_set<std::string> seen;
  for (TraceNode& n : st.headerNodes) {
    if (seen.insert(n.name).second) nodes.push_back(std::move(n));
  }
  for (TraceNode& n : nodesFromTaskHosts(st.trace.jobs, st.options.sls.nodeResource)) {
    if (seen.insert(n.name).second) nodes.push_back(std::move(n));
  }
  st.trace.nodes = std::move(nodes);
}

}  // namespace

Result<Trace> parseSlsTrace(std::string_view text, std::string_view source,
                            const TraceReadOptions& options) {
  Trace trace;
  ReadState st{options, trace, 0, 0, {}, {}};
  SPINDLE_RETURN_IF_ERROR(parseFile(text, source, st));
  deriveNodes(st);
  return trace;
}

Result<Trace> readSlsTrace(const std::vector<std::string>& files, const TraceReadOptions& options) {
  Trace trace;
  ReadState st{options, trace, 0, 0, {}, {}};
  for (const std::string& file : files) {
    Result<std::string> text = readTextFile(file);
    if (!text) return text.status();
    SPINDLE_RETURN_IF_ERROR(parseFile(*text, file, st));
  }
  deriveNodes(st);
  return trace;
}

}  // namespace spindle
