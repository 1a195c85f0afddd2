#include "whatif/run_figures.h"

#include <fstream>
#include <set>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/csv.h"
#include "report/jobs.h"
#include "whatif/plan_queues.h"

namespace spindle::whatif {

namespace {

namespace fs = std::filesystem;

using Series = std::vector<std::pair<double, double>>;

// A metrics CSV's (t, value) rows; none when the run did not write the file.
Result<Series> readSeries(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return Series();
  SPINDLE_ASSIGN_OR_RETURN(report::CsvTable t, report::readCsvFile(file, {"t"}));
  if (t.header.size() < 2)
    return invalidArgument("{}: expected the columns t,value", file.string());
  Series out;
  for (const report::CsvRow& row : t.rows) {
    try {
      out.emplace_back(std::stod(row.fields[0]), std::stod(row.fields[1]));
    } catch (const std::exception&) {
      return invalidArgument("{}:{}: not a number", file.string(), row.line);
    }
  }
  return out;
}

// preemption-rounds.csv: the containers marked and killed, summed over the rounds.
Status readPreemption(const fs::path& file, RunFigures& f) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return Status::ok();
  SPINDLE_ASSIGN_OR_RETURN(report::CsvTable t,
                           report::readCsvFile(file, {"containers_marked", "containers_killed"}));
  int64_t marked = 0, killed = 0;
  for (const report::CsvRow& row : t.rows) {
    SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> m, t.optionalInt(row, "containers_marked"));
    SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> k, t.optionalInt(row, "containers_killed"));
    marked += m.value_or(0);
    killed += k.value_or(0);
  }
  f.preemptedMarked = marked;
  f.preemptedKilled = killed;
  return Status::ok();
}

Status readUtilisation(const fs::path& metrics, RunFigures& f) {
  SPINDLE_ASSIGN_OR_RETURN(Series allocated,
                           readSeries(metrics / "variable.cluster.allocated.memory.csv"));
  SPINDLE_ASSIGN_OR_RETURN(Series available,
                           readSeries(metrics / "variable.cluster.available.memory.csv"));
  if (allocated.empty() || available.empty()) return Status::ok();
  // The cluster's memory at each sample time (nodes may come and go).
  std::map<double, double> total;
  for (const auto& [t, v] : allocated) total[t] = v;
  for (const auto& [t, v] : available) total[t] += v;
  constexpr std::string_view kPrefix = "counter.queue.";
  constexpr std::string_view kSuffix = ".allocated.memory.csv";
  std::map<std::string, std::map<double, double>> byLeaf;  // leaf -> t -> share
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(metrics, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() <= kPrefix.size() + kSuffix.size() || !name.starts_with(kPrefix) ||
        !name.ends_with(kSuffix)) {
      continue;
    }
    SPINDLE_ASSIGN_OR_RETURN(Series series, readSeries(e.path()));
    std::map<double, double>& shares =
        byLeaf[name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size())];
    for (const auto& [t, v] : series) {
      auto it = total.find(t);
      if (it == total.end() || it->second <= 0) continue;
      shares[t] = v / it->second;
    }
  }
  // The mean over the samples of the queue's share; a plan queue's reservation queues count as
  // the plan queue (their shares add up at each sample, over the samples any of them has).
  std::set<std::string> leaves;
  for (const auto& [leaf, shares] : byLeaf) leaves.insert(leaf);
  for (const auto& [group, members] : metricQueueGroups(leaves)) {
    std::map<double, double> sum;
    for (const std::string& m : members) {
      for (const auto& [t, share] : byLeaf[m]) sum[t] += share;
    }
    if (sum.empty()) continue;
    double shares = 0;
    for (const auto& [t, share] : sum) shares += share;
    f.queueUtilisation[group] = shares / static_cast<double>(sum.size());
  }
  return Status::ok();
}

Status readReservations(const fs::path& file, RunFigures& f) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return Status::ok();
  std::ifstream in(file);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return invalidArgument("{}: not a JSON object", file.string());
  }
  ReservationFigures r;
  auto number = [&](const char* key, auto& into) -> Status {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
      return invalidArgument("{}: '{}' is missing or not a number", file.string(), key);
    }
    into = it->get<std::remove_reference_t<decltype(into)>>();
    return Status::ok();
  };
  SPINDLE_RETURN_IF_ERROR(number("reservationsAsked", r.asked));
  SPINDLE_RETURN_IF_ERROR(number("reservationsAccepted", r.accepted));
  SPINDLE_RETURN_IF_ERROR(number("acceptanceRatio", r.acceptanceRatio));
  SPINDLE_RETURN_IF_ERROR(number("acceptedMetDeadline", r.acceptedMetDeadline));
  SPINDLE_RETURN_IF_ERROR(number("deadlineShare", r.deadlineShare));
  f.reservations = r;
  return Status::ok();
}

}  // namespace

Result<RunFigures> readRunFigures(const std::filesystem::path& dir) {
  RunFigures f;
  const fs::path metrics = dir / "metrics";
  SPINDLE_RETURN_IF_ERROR(readUtilisation(metrics, f));
  SPINDLE_RETURN_IF_ERROR(readPreemption(dir / "preemption-rounds.csv", f));
  SPINDLE_ASSIGN_OR_RETURN(report::JobSet jobs, report::readJobs(dir));
  for (const report::JobRecord& j : jobs.jobs) {
    const report::JobOutcome o = report::outcomeOf(j.state);
    if ((o == report::JobOutcome::kRejected || o == report::JobOutcome::kKilled) &&
        !j.reason.empty()) {
      ++f.rejectedReasons[report::reasonWithoutAppIds(j.reason)];
    }
  }
  SPINDLE_RETURN_IF_ERROR(readReservations(dir / "reservation-metrics.json", f));
  return f;
}

}  // namespace spindle::whatif
