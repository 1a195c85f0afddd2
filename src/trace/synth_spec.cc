#include "trace/synth_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "trace/json_fields.h"
#include "trace/json_stream.h"

namespace spindle {
namespace {

using nlohmann::json;

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Result<std::vector<double>> numberList(const JsonFields& f, std::string_view key) {
  std::vector<double> out;
  const json& list = f.at(key);
  if (!list.is_array())
    return f.error(key, "expected an array of numbers, got {}", briefJson(list));
  for (const json& v : list) {
    if (!v.is_number()) return f.error(key, "expected numbers, got {}", briefJson(v));
    out.push_back(v.get<double>());
  }
  return out;
}

Status checkWeights(const JsonFields& f, std::string_view key, const std::vector<double>& w) {
  double total = 0;
  for (double x : w) {
    if (!(x >= 0) || !std::isfinite(x)) return f.error(key, "weights must be >= 0, got {}", x);
    total += x;
  }
  if (!(total > 0)) return f.error(key, "weights must not all be 0");
  return Status::ok();
}

Status validateSample(const JsonFields& f, std::string_view key, const SynthSample& s) {
  if (s.dist == SynthSample::Dist::kLogNormal && !(s.val > 0)) {
    return f.error(key, "a log-normal value needs val > 0 when std > 0, got val {}", s.val);
  }
  if (s.std < 0) return f.error(key, "std must not be negative, got {}", s.std);
  return Status::ok();
}

// The generic form {"val", "std", "dist", "discrete", "weights"} at `key`.
Result<SynthSample> genericSample(const JsonFields& parent, std::string_view key) {
  SynthSample s;
  if (!parent.has(key)) return s;
  const json& j = parent.at(key);
  s.given = true;
  if (j.is_number()) {  // a bare number: a constant
    s.val = j.get<double>();
    return s;
  }
  if (!j.is_object()) {
    return parent.error(key, "expected {{\"val\": .., \"std\": ..}}, got {}", briefJson(j));
  }
  JsonFields f(j, parent.fieldName(key) + ".");
  if (f.has("discrete")) {
    SPINDLE_ASSIGN_OR_RETURN(s.discrete, numberList(f, "discrete"));
    if (s.discrete.empty()) return f.error("discrete", "empty list");
    if (f.has("weights")) {
      SPINDLE_ASSIGN_OR_RETURN(s.weights, numberList(f, "weights"));
      if (s.weights.size() != s.discrete.size()) {
        return f.error("weights", "has {} entries for {} discrete values", s.weights.size(),
                       s.discrete.size());
      }
    } else {
      s.weights.assign(s.discrete.size(), 1.0);
    }
    SPINDLE_RETURN_IF_ERROR(checkWeights(f, "weights", s.weights));
    s.dist = SynthSample::Dist::kDiscrete;
    return s;
  }
  SPINDLE_ASSIGN_OR_RETURN(s.val, f.doubleOr("val", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.std, f.doubleOr("std", 0));
  Result<std::string> dist = f.stringOr("dist", "LOGNORM");
  if (!dist) return dist.status();
  const std::string d = lower(*dist);
  if (d != "lognorm" && d != "norm") {
    return f.error("dist", "unknown distribution '{}' (LOGNORM or NORM)", *dist);
  }
  if (s.std != 0) {
    s.dist = d == "norm" ? SynthSample::Dist::kNormal : SynthSample::Dist::kLogNormal;
  }
  SPINDLE_RETURN_IF_ERROR(validateSample(parent, key, s));
  return s;
}

// The old flat form: <base>_avg and <base>_stddev.
Result<SynthSample> flatSample(const JsonFields& f, std::string_view base) {
  SynthSample s;
  const std::string avgKey = fmt::format("{}_avg", base);
  const std::string stdKey = fmt::format("{}_stddev", base);
  if (!f.has(avgKey)) {
    if (f.has(stdKey)) return f.error(avgKey, "missing ({} is given)", stdKey);
    return s;
  }
  s.given = true;
  SPINDLE_ASSIGN_OR_RETURN(s.val, f.doubleOr(avgKey, 0));
  SPINDLE_ASSIGN_OR_RETURN(s.std, f.doubleOr(stdKey, 0));
  if (s.std != 0) s.dist = SynthSample::Dist::kLogNormal;
  SPINDLE_RETURN_IF_ERROR(validateSample(f, avgKey, s));
  return s;
}

Result<ExecutionType> executionType(const JsonFields& f, std::string_view key) {
  Result<std::string> v = f.stringOr(key, "GUARANTEED");
  if (!v) return v.status();
  const std::string t = lower(*v);
  if (t == "guaranteed") return ExecutionType::kGuaranteed;
  if (t == "opportunistic") return ExecutionType::kOpportunistic;
  return f.error(key, "unknown execution type '{}' (GUARANTEED or OPPORTUNISTIC)", *v);
}

Result<SynthTaskSpec> genericTask(const JsonFields& f) {
  SynthTaskSpec t;
  Result<std::string> type = f.stringOr("type", "map");
  if (!type) return type.status();
  const std::string ty = lower(*type);
  if (ty == "map" || ty == "stream") {
    t.type = TaskType::kMap;
  } else if (ty == "reduce") {
    t.type = TaskType::kReduce;
  } else {
    return f.error("type", "unknown task type '{}' (map, reduce or stream)", *type);
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t prio,
                           f.intOr("priority", t.type == TaskType::kReduce ? 10 : 20));
  if (prio < INT32_MIN || prio > INT32_MAX) return f.error("priority", "out of range: {}", prio);
  t.priority = static_cast<int32_t>(prio);
  SPINDLE_ASSIGN_OR_RETURN(t.executionType, executionType(f, "execution_type"));
  SPINDLE_ASSIGN_OR_RETURN(t.count, genericSample(f, "count"));
  if (!t.count.given) {
    t.count.val = 1;
    t.count.given = true;
  }
  SPINDLE_ASSIGN_OR_RETURN(t.timeSec, genericSample(f, "time"));
  if (!t.timeSec.given) return f.error("time", "missing (required)");
  SPINDLE_ASSIGN_OR_RETURN(t.maxMemory, genericSample(f, "max_memory"));
  SPINDLE_ASSIGN_OR_RETURN(t.maxVcores, genericSample(f, "max_vcores"));
  return t;
}

// The flat keys of one side: prefixes "m"/"map" or "r"/"reduce".
Result<std::optional<SynthTaskSpec>> flatTask(const JsonFields& f, bool map) {
  SynthTaskSpec t;
  t.type = map ? TaskType::kMap : TaskType::kReduce;
  t.priority = map ? 20 : 10;
  SPINDLE_ASSIGN_OR_RETURN(t.count, flatSample(f, map ? "mtasks" : "rtasks"));
  if (!t.count.given) return std::optional<SynthTaskSpec>();
  SPINDLE_ASSIGN_OR_RETURN(t.timeSec, flatSample(f, map ? "mtime" : "rtime"));
  if (!t.timeSec.given) {
    return f.error(map ? "mtime_avg" : "rtime_avg", "missing ({} is given)",
                   map ? "mtasks_avg" : "rtasks_avg");
  }
  SPINDLE_ASSIGN_OR_RETURN(t.maxMemory,
                           flatSample(f, map ? "map_max_memory" : "reduce_max_memory"));
  SPINDLE_ASSIGN_OR_RETURN(t.maxVcores,
                           flatSample(f, map ? "map_max_vcores" : "reduce_max_vcores"));
  SPINDLE_ASSIGN_OR_RETURN(t.executionType,
                           executionType(f, map ? "map_execution_type" : "reduce_execution_type"));
  return std::optional<SynthTaskSpec>(t);
}

Result<SynthJobClass> parseClass(const JsonFields& f, const TraceReadOptions& o) {
  SynthJobClass c;
  {
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("class_name", ""), c.name));
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("user_name", "default"), c.user));
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("type", "mapreduce"), c.amType));
  }
  if (!o.sls.amTypes.empty() && !o.sls.amTypes.count(c.amType)) {
    return f.error("type", "unknown AM type '{}' (register it with yarn.sls.am.type.{})", c.amType,
                   c.amType);
  }
  SPINDLE_ASSIGN_OR_RETURN(c.weight, f.doubleOr("class_weight", 1));
  if (!(c.weight >= 0)) return f.error("class_weight", "must be >= 0, got {}", c.weight);

  SPINDLE_ASSIGN_OR_RETURN(c.durationSec, genericSample(f, "duration"));
  if (!c.durationSec.given) {
    SPINDLE_ASSIGN_OR_RETURN(c.durationSec, flatSample(f, "dur"));
  }
  SPINDLE_ASSIGN_OR_RETURN(c.reservation, genericSample(f, "reservation"));
  if (!c.reservation.given && f.has("chance_of_reservation")) {
    c.reservation.given = true;
    SPINDLE_ASSIGN_OR_RETURN(c.reservation.val, f.doubleOr("chance_of_reservation", 0));
  }
  SPINDLE_ASSIGN_OR_RETURN(c.deadlineFactor, genericSample(f, "deadline_factor"));
  if (!c.deadlineFactor.given) {
    SPINDLE_ASSIGN_OR_RETURN(c.deadlineFactor, flatSample(f, "deadline_factor"));
  }

  if (f.has("tasks")) {
    const json& tasks = f.at("tasks");
    if (!tasks.is_array()) return f.error("tasks", "expected an array, got {}", briefJson(tasks));
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (!tasks[i].is_object()) {
        return f.error(fmt::format("tasks[{}]", i), "expected an object, got {}",
                       briefJson(tasks[i]));
      }
      SPINDLE_ASSIGN_OR_RETURN(
          SynthTaskSpec t,
          genericTask(JsonFields(tasks[i], f.fieldName(fmt::format("tasks[{}].", i)))));
      c.tasks.push_back(t);
    }
  } else {
    for (bool map : {true, false}) {
      SPINDLE_ASSIGN_OR_RETURN(std::optional<SynthTaskSpec> t, flatTask(f, map));
      if (t) c.tasks.push_back(*t);
    }
  }
  return c;
}

Result<SynthWorkload> parseWorkload(const JsonFields& f, const TraceReadOptions& o) {
  SynthWorkload w;
  {
    SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("workload_name", ""), w.name));
    Result<std::string> queue = f.requiredString("queue_name");
    if (!queue) return queue.status();
    if (queue->empty()) return f.error("queue_name", "empty queue name");
    w.queue = *queue;
  }
  SPINDLE_ASSIGN_OR_RETURN(w.weight, f.doubleOr("workload_weight", 1));
  if (!(w.weight >= 0)) return f.error("workload_weight", "must be >= 0, got {}", w.weight);

  if (!f.has("job_classes") || !f.at("job_classes").is_array() || f.at("job_classes").empty()) {
    return f.error("job_classes", "expected a non-empty array of job classes");
  }
  const json& classes = f.at("job_classes");
  double classTotal = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    SPINDLE_ASSIGN_OR_RETURN(
        SynthJobClass c,
        parseClass(JsonFields(classes[i], f.fieldName(fmt::format("job_classes[{}].", i))), o));
    classTotal += c.weight;
    w.classes.push_back(c);
  }
  if (!(classTotal > 0)) return f.error("job_classes", "every class_weight is 0");

  if (!f.has("time_distribution") || !f.at("time_distribution").is_array() ||
      f.at("time_distribution").empty()) {
    return f.error("time_distribution", "expected a non-empty array of {{\"time\", \"weight\"}}");
  }
  const json& buckets = f.at("time_distribution");
  double total = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    JsonFields b(buckets[i], f.fieldName(fmt::format("time_distribution[{}].", i)));
    SynthTimeBucket bucket;
    SPINDLE_ASSIGN_OR_RETURN(std::optional<double> t, b.optDouble("time"));
    if (!t) return b.error("time", "missing (required)");
    if (*t < 0) return b.error("time", "must not be negative, got {}", *t);
    bucket.timeSec = *t;
    SPINDLE_ASSIGN_OR_RETURN(bucket.weight, b.doubleOr("weight", 1));
    if (!(bucket.weight >= 0)) return b.error("weight", "must be >= 0, got {}", bucket.weight);
    total += bucket.weight;
    w.timeDistribution.push_back(bucket);
  }
  if (!(total > 0)) return f.error("time_distribution", "every weight is 0");
  std::stable_sort(
      w.timeDistribution.begin(), w.timeDistribution.end(),
      [](const SynthTimeBucket& a, const SynthTimeBucket& b) { return a.timeSec < b.timeSec; });
  return w;
}

Result<SynthSpec> parseSpecObject(const JsonFields& f, const TraceReadOptions& o) {
  SynthSpec spec;
  { SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("description", ""), spec.description)); }
  SPINDLE_ASSIGN_OR_RETURN(spec.numNodes, f.intOr("num_nodes", 0));
  SPINDLE_ASSIGN_OR_RETURN(spec.nodesPerRack, f.intOr("nodes_per_rack", 1));
  if (spec.numNodes < 0) return f.error("num_nodes", "must not be negative, got {}", spec.numNodes);
  if (spec.nodesPerRack < 1) {
    return f.error("nodes_per_rack", "must be >= 1, got {}", spec.nodesPerRack);
  }
  SPINDLE_ASSIGN_OR_RETURN(spec.numJobs, f.requiredInt("num_jobs"));
  if (spec.numJobs < 0) return f.error("num_jobs", "must not be negative, got {}", spec.numJobs);
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> seed, f.optInt("rand_seed"));
  if (seed) spec.randSeed = static_cast<uint64_t>(*seed);
  if (!f.has("workloads") || !f.at("workloads").is_array() || f.at("workloads").empty()) {
    return f.error("workloads", "expected a non-empty array of workloads");
  }
  const json& workloads = f.at("workloads");
  double total = 0;
  for (size_t i = 0; i < workloads.size(); ++i) {
    if (!workloads[i].is_object()) {
      return f.error(fmt::format("workloads[{}]", i), "expected an object");
    }
    SPINDLE_ASSIGN_OR_RETURN(
        SynthWorkload w,
        parseWorkload(JsonFields(workloads[i], fmt::format("workloads[{}].", i)), o));
    total += w.weight;
    spec.workloads.push_back(w);
  }
  if (!(total > 0)) return f.error("workloads", "every workload_weight is 0");
  return spec;
}

}  // namespace

Result<SynthSpec> parseSynthSpec(std::string_view text, std::string_view source,
                                 const TraceReadOptions& options) {
  SPINDLE_ASSIGN_OR_RETURN(std::vector<JsonObject> objects, parseJsonObjects(text, source));
  if (objects.size() != 1) {
    return invalidArgument("{}: a SYNTH spec is one JSON object, found {}", source, objects.size());
  }
  Result<SynthSpec> spec = parseSpecObject(JsonFields(objects[0].value, ""), options);
  if (!spec) return spec.status().withContext(source);
  return spec;
}

}  // namespace spindle
