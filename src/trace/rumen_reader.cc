#include "trace/rumen_reader.h"

#include <optional>

#include "trace/job_policy.h"
#include "trace/json_fields.h"
#include "trace/json_stream.h"
#include "trace/nodes_reader.h"

namespace spindle {
namespace {

using nlohmann::json;

constexpr int32_t kMapPriority = 20;     // MRAMSimulator.PRIORITY_MAP
constexpr int32_t kReducePriority = 10;  // MRAMSimulator.PRIORITY_REDUCE

struct ReadState {
  const TraceReadOptions& options;
  Trace& trace;
  std::optional<int64_t> baseMs;  // the first job's submitTime (rule 3)
};

std::string taskName(const JsonFields& task, std::string_view list, size_t i) {
  if (task.has("taskID") && task.at("taskID").is_string()) {
    return task.at("taskID").get<std::string>();
  }
  return fmt::format("{}[{}]", list, i);
}

// The container of one task from its last attempt (rule 4), or nullopt with the reason.
Result<std::optional<TraceTask>> taskFromLastAttempt(const JsonFields& task,
                                                     std::string& skipReason,
                                                     const TraceReadOptions& o) {
  if (task.has("attempts") && !task.at("attempts").is_array()) {
    return task.error("attempts", "expected an array, got {}", briefJson(task.at("attempts")));
  }
  if (!task.has("attempts") || task.at("attempts").empty()) {
    skipReason = "no attempts";
    return std::optional<TraceTask>();
  }
  const json& attempts = task.at("attempts");
  const size_t last = attempts.size() - 1;
  if (!attempts[last].is_object()) {
    return task.error(fmt::format("attempts[{}]", last), "expected an object, got {}",
                      briefJson(attempts[last]));
  }
  JsonFields a(attempts[last], fmt::format("{}attempts[{}].", task.fieldName(""), last));
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> start, a.optInt("startTime"));
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> finish, a.optInt("finishTime"));
  if (!start || !finish || *start < 0 || *finish < 0) {
    skipReason = "last attempt has no startTime/finishTime";
    return std::optional<TraceTask>();
  }
  if (*finish - *start <= 0) {
    skipReason = fmt::format("last attempt has a non-positive duration {} ms", *finish - *start);
    return std::optional<TraceTask>();
  }
  if (*finish - *start > kMaxTraceTimeMs) {
    return a.error("finishTime",
                   "duration {} ms is beyond the largest time a trace may give ({} ms)",
                   *finish - *start, kMaxTraceTimeMs);
  }
  TraceTask t;
  t.durationMs = *finish - *start;
  t.resource = o.sls.containerResource;
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> host, a.optString("hostName"));
  if (host) {
    HostPath hp = splitHostPath(*host);
    t.host = hp.host;
    t.rack = hp.rack;
  }
  return std::optional<TraceTask>(t);
}

Status readTasks(const JsonFields& f, std::string_view list, TaskType type, TraceJob& job,
                 ReadState& st, std::string_view where) {
  if (!f.has(list)) return Status::ok();
  const json& tasks = f.at(list);
  if (!tasks.is_array()) return f.error(list, "expected an array, got {}", briefJson(tasks));
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!tasks[i].is_object()) {
      return f.error(fmt::format("{}[{}]", list, i), "expected an object, got {}",
                     briefJson(tasks[i]));
    }
    JsonFields tf(tasks[i], fmt::format("{}[{}].", list, i));
    std::string reason;
    SPINDLE_ASSIGN_OR_RETURN(std::optional<TraceTask> task,
                             taskFromLastAttempt(tf, reason, st.options));
    if (!task) {
      ++st.trace.skippedTasks;
      st.trace.warnings.push_back(
          fmt::format("{}: skipped task {}: {}", where, taskName(tf, list, i), reason));
      continue;
    }
    task->type = type;
    task->priority = type == TaskType::kMap ? kMapPriority : kReducePriority;
    job.tasks.push_back(*task);
  }
  return Status::ok();
}

Result<TraceJob> parseJob(const JsonFields& f, ReadState& st, std::string_view where) {
  const TraceReadOptions& o = st.options;
  TraceJob job;
  {
    SPINDLE_RETURN_IF_ERROR(copyString(f.requiredString("jobID"), job.id));
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("user", "default"), job.user));
    Result<std::string> queue = f.stringOr("queue", "default");
    if (!queue) return queue.status();
    job.queue = queue->empty() ? "default" : *queue;
  }
  SPINDLE_RETURN_IF_ERROR(checkKnownQueue(job.queue, o, "queue"));
  SPINDLE_ASSIGN_OR_RETURN(int64_t submit, f.requiredInt("submitTime"));
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> finish, f.optInt("finishTime"));
  // Rebased times must stay within kMaxTraceTimeMs (trace.h): no overflow in the simulator.
  for (auto [key, v] :
       {std::pair{"submitTime", std::optional<int64_t>(submit)}, std::pair{"finishTime", finish}}) {
    if (v && (*v < -kMaxTraceTimeMs / 2 || *v > kMaxTraceTimeMs / 2)) {
      return f.error(key, "{} ms is beyond the largest time a trace may give (+-{} ms)", *v,
                     kMaxTraceTimeMs / 2);
    }
  }
  job.amType = "mapreduce";
  job.amResource = o.sls.amResource;
  const size_t skippedBefore = st.trace.warnings.size();
  const int skippedTasksBefore = st.trace.skippedTasks;
  Status tasks = readTasks(f, "mapTasks", TaskType::kMap, job, st, where);
  if (tasks.isOk()) tasks = readTasks(f, "reduceTasks", TaskType::kReduce, job, st, where);
  if (!tasks.isOk()) {
    // The job is bad: forget the per-task notes it left behind.
    st.trace.warnings.resize(skippedBefore);
    st.trace.skippedTasks = skippedTasksBefore;
    return tasks;
  }
  // Rule 3.
  if (!st.baseMs) st.baseMs = submit;
  job.startMs = submit - *st.baseMs;
  if (finish && *finish > 0) job.endMs = *finish - *st.baseMs;
  if (job.startMs < 0) {
    st.trace.warnings.push_back(
        fmt::format("{}: submitTime {} is before the first job's {}; starting it at 0", where,
                    submit, *st.baseMs));
    if (job.endMs) job.endMs = *job.endMs - job.startMs;
    job.startMs = 0;
  }
  return job;
}

Status parseFile(std::string_view text, std::string_view source, ReadState& st) {
  int index = 0;
  return forEachJsonObject(text, source, [&](const JsonObject& obj) {
    JsonFields f(obj.value, "");
    std::string id = f.has("jobID") && f.at("jobID").is_string() ? f.at("jobID").get<std::string>()
                                                                 : std::string("?");
    const std::string where = fmt::format("{}: job #{} (id {})", source, ++index, id);
    Result<TraceJob> job = parseJob(f, st, where);
    if (!job) return handleBadJob(job.status().withContext(where), st.options, st.trace);
    st.trace.jobs.push_back(std::move(*job));
    return Status::ok();
  });
}

}  // namespace

Result<Trace> parseRumenTrace(std::string_view text, std::string_view source,
                              const TraceReadOptions& options) {
  Trace trace;
  ReadState st{options, trace, std::nullopt};
  SPINDLE_RETURN_IF_ERROR(parseFile(text, source, st));
  trace.nodes = nodesFromTaskHosts(trace.jobs, options.sls.nodeResource);
  return trace;
}

Result<Trace> readRumenTrace(const std::vector<std::string>& files,
                             const TraceReadOptions& options) {
  Trace trace;
  ReadState st{options, trace, std::nullopt};
  for (const std::string& file : files) {
    Result<std::string> text = readTextFile(file);
    if (!text) return text.status();
    SPINDLE_RETURN_IF_ERROR(parseFile(*text, file, st));
  }
  trace.nodes = nodesFromTaskHosts(trace.jobs, options.sls.nodeResource);
  return trace;
}

}  // namespace spindle
