#include "sls/compare.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "report/csv.h"

namespace spindle::sls {

Result<std::vector<JobRuntime>> readRuntimes(const std::string& path) {
  SPINDLE_ASSIGN_OR_RETURN(
      report::CsvTable t,
      report::readCsvFile(path, {"JobID", "simulate_start_time", "simulate_end_time"}));
  std::vector<JobRuntime> out;
  for (const report::CsvRow& row : t.rows) {
    JobRuntime j;
    j.id = t.field(row, "JobID");
    SPINDLE_ASSIGN_OR_RETURN(j.startMs, t.optionalInt(row, "simulate_start_time"));
    SPINDLE_ASSIGN_OR_RETURN(j.endMs, t.optionalInt(row, "simulate_end_time"));
    out.push_back(std::move(j));
  }
  return out;
}

namespace {
std::optional<int64_t> minus(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (!a || !b) return std::nullopt;
  return *a - *b;
}
std::string opt(std::optional<int64_t> v) { return v ? std::to_string(*v) : "-"; }
std::string signedOpt(std::optional<int64_t> v) { return v ? fmt::format("{:+}", *v) : "-"; }
}  // namespace

std::optional<int64_t> JobPair::startDelta() const { return minus(slsStart, simStart); }
std::optional<int64_t> JobPair::endDelta() const { return minus(slsEnd, simEnd); }

double RunComparison::makespanRatio() const {
  return simMakespanMs > 0 ? static_cast<double>(slsMakespanMs) / static_cast<double>(simMakespanMs)
                           : 0.0;
}

RunComparison compareRuns(const std::vector<JobRuntime>& sim, const std::vector<JobRuntime>& sls) {
  RunComparison c;
  std::map<std::string, const JobRuntime*> slsById;
  for (const JobRuntime& j : sls) slsById[j.id] = &j;
  std::map<std::string, bool> inSim;
  for (const JobRuntime& j : sim) {
    inSim[j.id] = true;
    JobPair p{j.id, j.startMs, j.endMs, std::nullopt, std::nullopt};
    if (auto it = slsById.find(j.id); it != slsById.end()) {
      p.slsStart = it->second->startMs;
      p.slsEnd = it->second->endMs;
    } else {
      c.onlySim.push_back(j.id);
    }
    c.jobs.push_back(std::move(p));
  }
  for (const JobRuntime& j : sls) {
    if (inSim.count(j.id)) continue;
    c.onlySls.push_back(j.id);
    c.jobs.push_back(JobPair{j.id, std::nullopt, std::nullopt, j.startMs, j.endMs});
  }
  int64_t sum = 0, n = 0;
  for (const JobPair& p : c.jobs) {
    if (p.simEnd) c.simMakespanMs = std::max(c.simMakespanMs, *p.simEnd);
    if (p.slsEnd) c.slsMakespanMs = std::max(c.slsMakespanMs, *p.slsEnd);
    if (p.simStart && !p.simEnd) ++c.unfinishedSim;
    if (p.slsStart && !p.slsEnd) ++c.unfinishedSls;
    if (auto d = p.endDelta()) {
      sum += std::llabs(*d);
      ++n;
      c.maxAbsEndDeltaMs = std::max<int64_t>(c.maxAbsEndDeltaMs, std::llabs(*d));
    }
  }
  if (n > 0) c.meanAbsEndDeltaMs = static_cast<double>(sum) / static_cast<double>(n);
  return c;
}

std::string formatComparison(const RunComparison& c) {
  size_t width = 3;
  for (const JobPair& p : c.jobs) width = std::max(width, p.id.size());
  std::string out = fmt::format("{:<{}}  {:>10} {:>10} {:>8}  {:>10} {:>10} {:>8}\n", "job", width,
                                "sim_start", "sls_start", "delta", "sim_end", "sls_end", "delta");
  for (const JobPair& p : c.jobs) {
    out += fmt::format("{:<{}}  {:>10} {:>10} {:>8}  {:>10} {:>10} {:>8}\n", p.id, width,
                       opt(p.simStart), opt(p.slsStart), signedOpt(p.startDelta()), opt(p.simEnd),
                       opt(p.slsEnd), signedOpt(p.endDelta()));
  }
  out += fmt::format("makespan: sim {} ms, sls {} ms, ratio sls/sim {:.3f}\n", c.simMakespanMs,
                     c.slsMakespanMs, c.makespanRatio());
  out += fmt::format("end delta over {} job(s) both finished: mean |delta| {:.0f} ms, max {} ms\n",
                     std::count_if(c.jobs.begin(), c.jobs.end(),
                                   [](const JobPair& p) { return p.endDelta().has_value(); }),
                     c.meanAbsEndDeltaMs, c.maxAbsEndDeltaMs);
  if (c.unfinishedSim + c.unfinishedSls > 0) {
    out += fmt::format("unfinished: {} in sim, {} in sls\n", c.unfinishedSim, c.unfinishedSls);
  }
  auto list = [](const std::vector<std::string>& ids) {
    std::string s;
    for (const std::string& id : ids) s += (s.empty() ? "" : ", ") + id;
    return s;
  };
  if (!c.onlySim.empty()) out += "only in sim: " + list(c.onlySim) + "\n";
  if (!c.onlySls.empty()) out += "only in sls: " + list(c.onlySls) + "\n";
  return out;
}

}  // namespace spindle::sls
