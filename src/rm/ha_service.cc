#include "rm/ha_service.h"

#include <algorithm>
#include <chrono>

#include "base/log.h"
#include "base/thread_name.h"
#include "rm/rest_answers.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
using protocol::Respond;

namespace {

constexpr std::string_view kHaAdmin = "/rpc/v1/ha/";

std::string queryString(const HttpRequest& r) {
  std::string q;
  for (const auto& [k, v] : r.query) {
    q += q.empty() ? '?' : '&';
    q += k + "=" + v;
  }
  return q;
}

// "rm2 127.0.0.1:8090" -> "127.0.0.1:8090".
std::string addressOf(const std::string& leader) {
  const size_t space = leader.find(' ');
  return space == std::string::npos ? std::string() : leader.substr(space + 1);
}

}  // namespace

const char* toString(HaState s) {
  switch (s) {
    case HaState::kStandby: return "STANDBY";
    case HaState::kActive: return "ACTIVE";
    case HaState::kStopping: return "STOPPING";
  }
  return "?";
}

HaService::HaService(HaSettings ha, ActiveMaker makeActive, const Clock& clock)
    : ha_(std::move(ha)),
      makeActive_(std::move(makeActive)),
      clock_(clock),
      startedOn_(clock.nowMs()),
      wantActive_(ha_.automaticFailover) {}

HaService::~HaService() { stop(); }

HaState HaService::state() const {
  std::lock_guard lock(mu_);
  return state_;
}

Status HaService::start() {
  auto endpoints = ha::parseEtcdEndpoints(ha_.etcdEndpoints);
  if (!endpoints) {
    return endpoints.status().withContext("spindle.resourcemanager.ha.etcd.endpoints: ");
  }
  etcd_ = std::make_unique<ha::EtcdClient>(*endpoints);
  elector_ = std::make_unique<ha::LeaderElector>(
      *etcd_, clock_,
      ha::ElectorOptions{.leaderKey = ha_.leaderKey(),
                         .candidate = ha_.selfId + " " + ha_.selfAddress(),
                         .ttlSeconds = ha_.leaseTtlSeconds});
  auto who = elector_->observe();
  if (!who) {
    return failedPrecondition(
        "RM HA: {}; refusing to start without the election and the state store",
        who.status().message());
  }
  etcdState_ = "CONNECTED to etcd at " + etcd_->endpointsString();
  if (who->has_value()) leader_ = (*who)->candidate;
  SPINDLE_LOG_INFO("RM HA: {} starts STANDBY ({}; leader key {}: {})", ha_.selfId,
                   ha_.automaticFailover ? "automatic failover" : "manual failover",
                   ha_.leaderKey(), leader_.empty() ? "free" : leader_);
  thread_ = std::thread([this] {
    nameThisThread("rm-ha");
    run();
  });
  return Status::ok();
}

void HaService::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HaService::stepDown(std::string reason) {
  {
    std::lock_guard lock(mu_);
    if (stepDownReason_.empty()) stepDownReason_ = std::move(reason);
  }
  cv_.notify_all();
}

void HaService::becomeActive() {
  const int64_t token = elector_->fencingToken();
  SPINDLE_LOG_INFO("RM HA: {} won the election (fencing token {}); transitioning to ACTIVE",
                   ha_.selfId, token);
  auto made = makeActive_(token);
  std::lock_guard lock(mu_);
  if (!made) {
    lastTransitionError_ = made.status().message();
    SPINDLE_LOG_ERROR("RM HA: {} cannot become active: {}; resigning", ha_.selfId,
                      lastTransitionError_);
    (void)elector_->resign();
    ++transitions_;
    cv_.notify_all();
    return;
  }
  active_ = std::move(*made);
  state_ = HaState::kActive;
  stepDownReason_.clear();
  lastTransitionError_.clear();
  leader_ = ha_.selfId + " " + ha_.selfAddress();
  ++transitions_;
  cv_.notify_all();
  SPINDLE_LOG_INFO("RM HA: {} is ACTIVE", ha_.selfId);
}

void HaService::becomeStandby(const std::string& reason) {
  std::shared_ptr<ActiveServices> old;
  {
    std::lock_guard lock(mu_);
    old = std::move(active_);
    active_.reset();
    if (state_ == HaState::kActive) state_ = HaState::kStandby;
    leader_.clear();
    stepDownReason_.clear();
    ++transitions_;
  }
  cv_.notify_all();
  SPINDLE_LOG_WARN("RM HA: {} transitions to STANDBY: {}", ha_.selfId, reason);
  if (old) old->stop();
}

void HaService::run() {
  for (;;) {
    bool want = false;
    std::string stepDown;
    {
      std::lock_guard lock(mu_);
      if (stopping_) break;
      want = wantActive_;
      stepDown = stepDownReason_;
    }
    if (elector_->isLeader()) {
      if (!stepDown.empty()) {
        Status s = elector_->resign();
        becomeStandby(stepDown + (s.isOk() ? "" : " (resign: " + s.message() + ")"));
      } else if (!elector_->maintain()) {
        becomeStandby(elector_->lossReason());
      }
    } else if (want) {
      auto won = elector_->campaign();
      if (!won) {
        std::lock_guard lock(mu_);
        if (etcdState_ != won.status().message()) {
          SPINDLE_LOG_WARN("RM HA: {} cannot campaign: {}", ha_.selfId, won.status().message());
        }
        etcdState_ = won.status().message();
      } else {
        {
          std::lock_guard lock(mu_);
          etcdState_ = "CONNECTED to etcd at " + etcd_->endpointsString();
        }
        if (*won) becomeActive();
      }
    }
    if (!elector_->isLeader()) {
      auto who = elector_->observe();
      std::lock_guard lock(mu_);
      if (who) leader_ = who->has_value() ? (*who)->candidate : "";
    }
    std::unique_lock lock(mu_);
    const int64_t waitMs =
        std::clamp<int64_t>(elector_->nextActionMs() - clock_.nowMs(), 50,
                            elector_->isLeader() ? ha_.leaseTtlSeconds * 1000 / 3 : 1000);
    cv_.wait_for(lock, std::chrono::milliseconds(waitMs),
                 [&] { return stopping_ || !stepDownReason_.empty() || (wantActive_ && !want); });
  }
  if (elector_->isLeader()) {
    (void)elector_->resign();
  }
  std::shared_ptr<ActiveServices> old;
  {
    std::lock_guard lock(mu_);
    old = std::move(active_);
    state_ = HaState::kStopping;
  }
  if (old) old->stop();
}

std::string HaService::activeAddressLocked() const { return addressOf(leader_); }

json HaService::info(const std::string& storeName) {
  std::lock_guard lock(mu_);
  return {{"clusterInfo",
           {{"id", startedOn_},
            {"startedOn", startedOn_},
            {"state", "STARTED"},
            {"haState", toString(state_)},
            {"rmStateStoreName", storeName},
            {"resourceManagerVersion", SPINDLE_VERSION},
            {"resourceManagerBuildVersion", std::string("spindle ") + SPINDLE_VERSION},
            {"hadoopVersion", SPINDLE_VERSION},
            {"haZooKeeperConnectionState", etcdState_},
            {"rmId", ha_.selfId},
            {"activeRm", leader_}}}};
}

HttpResponse HaService::standbyAnswer(const HttpRequest& req) {
  std::string active;
  {
    std::lock_guard lock(mu_);
    active = activeAddressLocked();
  }
  const std::string where =
      active.empty() ? "no active ResourceManager is known yet" : "the active one is " + active;
  if (req.path.starts_with("/ws/")) {
    if (!active.empty()) {
      // YARN's RMWebAppFilter: a standby redirects web and REST calls to the active RM.
      const std::string url = "http://" + active + req.path + queryString(req);
      HttpResponse r(307, "This is standby RM. The redirect url is: " + url);
      r.contentType = "text/plain";
      r.headers.emplace_back("Location", url);
      return r;
    }
    return standbyException("ResourceManager " + ha_.selfId + " is standby; " + where);
  }
  return standbyException("Operation " + req.path + " is not supported in state standby (" +
                          ha_.selfId + "); " + where);
}

HttpResponse HaService::admin(const HttpRequest& req, std::string_view call) {
  if (call == "getServiceState" || call == "monitorHealth") {
    std::lock_guard lock(mu_);
    json j = {{"rmId", ha_.selfId},
              {"state", toString(state_)},
              {"activeRm", leader_},
              {"etcd", etcdState_}};
    if (call == "monitorHealth") {
      // YARN's AdminService.monitorHealth: an active RM whose services stopped is unhealthy;
      // a standby is healthy while it can reach the coordination service.
      const bool etcdOk = etcdState_.starts_with("CONNECTED");
      j["healthy"] = etcdOk;
      if (!etcdOk) {
        return errorWith(503, "HealthCheckFailedException",
                         "ResourceManager " + ha_.selfId + " is unhealthy: " + etcdState_);
      }
    }
    return ok(j);
  }
  if (call != "transitionToActive" && call != "transitionToStandby") {
    return errorWith(404, "NotFoundException", "no such HA admin call: " + std::string(call));
  }
  json body = req.body.empty() ? json::object() : json::parse(req.body, nullptr, false);
  if (!body.is_object()) return errorWith(400, "BadRequestException", "body: not a JSON object");
  const bool force = body.value("forcemanual", false);
  if (ha_.automaticFailover && !force) {
    // YARN's AdminService.checkHaStateChange / HAAdmin's refusal.
    return forbidden(
        "Automatic failover is enabled for ResourceManager " + ha_.selfId +
        ". Refusing to manually manage HA state, since it may cause a split-brain scenario or "
        "other incorrect state. If you are very sure you know what you are doing, please "
        "specify the --forcemanual flag.");
  }
  const bool toActive = call == "transitionToActive";
  std::unique_lock lock(mu_);
  if ((state_ == HaState::kActive) == toActive) {
    return ok(json{{"rmId", ha_.selfId}, {"state", toString(state_)}});
  }
  if (toActive && !leader_.empty()) {
    return errorWith(409, "ServiceFailedException",
                     "cannot make " + ha_.selfId + " active: " + leader_ +
                         " holds the leadership; transition it to standby first");
  }
  const uint64_t before = transitions_;
  wantActive_ = toActive;
  if (!toActive) stepDownReason_ = "transitionToStandby requested by an administrator";
  cv_.notify_all();
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(ha_.leaseTtlSeconds + 5);
  cv_.wait_until(lock, deadline, [&] { return transitions_ != before || stopping_; });
  if ((state_ == HaState::kActive) != toActive) {
    if (toActive) wantActive_ = ha_.automaticFailover;
    return errorWith(503, "ServiceFailedException",
                     "ResourceManager " + ha_.selfId + " did not become " +
                         (toActive ? "active" : "standby") +
                         (lastTransitionError_.empty() ? "" : ": " + lastTransitionError_) +
                         (etcdState_.starts_with("CONNECTED") ? "" : " (" + etcdState_ + ")"));
  }
  return ok(json{{"rmId", ha_.selfId}, {"state", toString(state_)}});
}

void HaService::handle(HttpRequest req, Respond respond) {
  if (req.path.starts_with(kHaAdmin)) {
    if (req.method != "POST" && req.method != "GET") return respond(wrongMethod(req));
    const std::string call = req.path.substr(kHaAdmin.size());
    return respond(admin(req, call));
  }
  std::shared_ptr<ActiveServices> active;
  {
    std::lock_guard lock(mu_);
    active = active_;
  }
  std::string path = req.path;
  while (path.ends_with('/')) path.pop_back();
  const bool infoPath = path == "/ws/v1/cluster" || path == "/ws/v1/cluster/info";
  if (infoPath && req.method == "GET") {
    if (!active) return respond(ok(info("none (standby)")));
    // The active core's view with the HA fields of this service.
    json ha = info(active->storeName())["clusterInfo"];
    auto patched = [ha, respond = std::move(respond)](HttpResponse r) {
      json j = json::parse(r.body, nullptr, false);
      if (r.status == 200 && j.is_object() && j.contains("clusterInfo")) {
        for (const char* k :
             {"haState", "rmStateStoreName", "haZooKeeperConnectionState", "rmId", "activeRm"}) {
          j["clusterInfo"][k] = ha[k];
        }
        r.body = j.dump();
      }
      respond(std::move(r));
    };
    return active->handle(std::move(req), std::move(patched));
  }
  if (!active) return respond(standbyAnswer(req));
  active->handle(std::move(req), std::move(respond));
}

}  // namespace spindle::rm
