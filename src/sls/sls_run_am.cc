#include "sls/sls_run.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "protocol/json_text.h"
#include "protocol/yarn_ids.h"
#include "sls/sls_run_impl.h"

namespace spindle::sls {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using loadgen::HttpCall;
using loadgen::steadyNowMs;

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
                  const std::string node = loadgen::amContainerNode(c, jb.amContainerId);
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
  job.conn.call(http::verb::post, "/rpc/v1/am/allocate", protocol::jsonText(r),
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
