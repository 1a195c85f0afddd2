// Per-job output files of `spindle sim`: jobruntime.csv (SLS's format) and jobs.csv (Spindle's
// fuller table). Columns are documented in docs/simulator.md.
//
//   SPINDLE_RETURN_IF_ERROR(writeJobRuntimeCsv("out/jobruntime.csv", engine.jobs()));
//   SPINDLE_RETURN_IF_ERROR(writeJobsCsv("out/jobs.csv", engine.jobs()));
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "sim/engine.h"

namespace spindle::sim {

// JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time: the trace's
// start/end and the simulated submission/finish (simulated ms); unknown values are empty.
Status writeJobRuntimeCsv(const std::string& path, const std::vector<JobResult>& jobs);
// JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state; with
// `placement` (a trace with placement keys) also rejected,rejection_reasons: the allocations of
// the job's SchedulingRequests rejected, and per reason "REASON=n" joined with ';'; when some job
// was marked for preemption, preempted or restarted its AM, also preemption_marked,
// preemption_released,preempted_killed,preempted_run_ms,am_restarts; when some job has a note,
// reason.
Status writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs,
                    bool placement = false);

// What the Rayon paper measures, over one run (docs/simulator.md, "Reservations").
struct ReservationMetrics {
  int64_t asked = 0;              // jobs that asked for a reservation
  int64_t accepted = 0;           // ... and got one
  int64_t acceptedFinished = 0;   // accepted jobs that FINISHED
  int64_t metDeadline = 0;        // accepted jobs that FINISHED by their deadline
  int64_t askedMetDeadline = 0;   // jobs with a deadline (reserved or not) FINISHED by it
  double acceptanceRatio = 0;     // accepted / asked
  double deadlineShare = 0;       // metDeadline / accepted
  double askedDeadlineShare = 0;  // askedMetDeadline / asked
  double utilisation = 0;         // allocated memory over time / (cluster memory x run time)
  int64_t bestEffortJobs = 0;     // FINISHED jobs without a reservation
  double bestEffortMeanMs = 0;    // their mean latency (end - submit)
  double bestEffortP95Ms = 0;     // and 95th percentile (nearest rank)
};
ReservationMetrics reservationMetrics(const std::vector<JobResult>& jobs, const RunStats& stats);
// job,queue,reservation_id,accepted,deadline_ms,submit_ms,end_ms,state,met_deadline,note: one
// row per job that asked for a reservation.
Status writeReservationsCsv(const std::string& path, const std::vector<JobResult>& jobs);
// reservation-metrics.json: the ReservationMetrics fields.
Status writeReservationMetrics(const std::string& path, const ReservationMetrics& m);

}  // namespace spindle::sim
