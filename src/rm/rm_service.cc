#include "rm/rm_service.h"

#include <cctype>

#include "protocol/codec.h"
#include "protocol/json_text.h"
#include "protocol/json_xml.h"
#include "protocol/rest_records.h"
#include "rm/rest_answers.h"
#include "webui/assets.h"
#include "webui/list_page.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
using protocol::Respond;

namespace {

constexpr std::string_view kCluster = "/ws/v1/cluster";
constexpr std::string_view kRpc = "/rpc/v1/";

// Hadoop's simple authentication (PseudoAuthenticationHandler): the caller is the user.name
// parameter, else hadoop.http.staticuser.user (StaticUserWebFilter).
Result<std::string> caller(const HttpRequest& r, const RmSettings& s) {
  auto it = r.query.find("user.name");
  if (it == r.query.end()) return s.staticUser;
  const std::string& user = it->second;
  if (user.empty()) return invalidArgument("user.name: empty user name");
  for (char c : user) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '*') {
      return invalidArgument("user.name: '{}' is not a user name", user);
    }
  }
  return user;
}

// Compares in time independent of where the strings differ.
bool sameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

HttpResponse notFoundPath(const HttpRequest& r) {
  return errorWith(404, "NotFoundException", "no such resource: " + r.path);
}

template <typename T>
HttpResponse answer(const Result<T>& r) {
  if (!r) return error(r.status());
  return ok(protocol::toJson(*r));
}

// How many records an answer carries, to choose where its JSON is made.
size_t answerItems(const protocol::NodeHeartbeatResponse& r) {
  return r.containersToCleanup.size() + r.applicationsToCleanup.size();
}
size_t answerItems(const protocol::AllocateResponse& r) {
  return r.allocatedContainers.size() + r.completedContainerStatuses.size() +
         r.preemptContainers.size() + r.rejectedSchedulingRequests.size() + r.updatedNodes.size();
}

// A protocol answer, written without a JSON document (json_text.h). A small one is made here
// when this thread sends its answers itself (a quiet RM, http_server.h); otherwise, and for a
// large one, it is made on the I/O thread that sends it, so the scheduler thread only moves the
// record (an allocate response with a thousand containers is a tenth of a millisecond of JSON).
// An answer an AM waits on (`waited`) is made and sent here up to kMadeHereWaited records: at
// 0.16 us a container, that is less than the I/O thread's queue would make it wait.
template <typename T>
HttpResponse answerLater(Result<T> r, bool waited = false) {
  if (!r) return error(r.status());
  constexpr size_t kMadeHere = 64;
  constexpr size_t kMadeHereWaited = 1024;
  HttpResponse resp;
  const size_t items = answerItems(*r);
  if (waited && items <= kMadeHereWaited) {
    resp.body = protocol::jsonText(*r);
    resp.sendNow = true;
  } else if (protocol::answersSentFromThisThread() && items <= kMadeHere) {
    resp.body = protocol::jsonText(*r);
  } else {
    resp.renderBody = [rec = std::make_shared<T>(std::move(*r))] {
      return protocol::jsonText(*rec);
    };
  }
  return resp;
}

// An answer an AM waits on: sent by the scheduler thread (answerLater above).
HttpResponse sentNow(HttpResponse r) {
  r.sendNow = !r.renderBody;
  return r;
}

// {"decommissionType": "NORMAL" | "GRACEFUL" | "FORCEFUL", "decommissionTimeout": seconds}
// (RefreshNodesRequest's fields); an empty body is NORMAL.
Result<RefreshNodesRequest> decodeRefreshNodes(const std::string& body) {
  RefreshNodesRequest r;
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return r;
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return invalidArgument("RefreshNodesRequest: the body is not a JSON object");
  }
  if (j.contains("decommissionType")) {
    const json& t = j["decommissionType"];
    const std::string v = t.is_string() ? t.get<std::string>() : "";
    if (v == "NORMAL") {
      r.type = DecommissionType::NORMAL;
    } else if (v == "GRACEFUL") {
      r.type = DecommissionType::GRACEFUL;
    } else if (v == "FORCEFUL") {
      r.type = DecommissionType::FORCEFUL;
    } else {
      return invalidArgument(
          "RefreshNodesRequest.decommissionType: expected NORMAL, GRACEFUL or FORCEFUL, got {}",
          t.dump());
    }
  }
  if (j.contains("decommissionTimeout")) {
    json t = j["decommissionTimeout"];
    if (t.is_string()) {  // an XML body's numbers are text
      const std::string text = t.get<std::string>();
      size_t used = 0;
      try {
        const int64_t n = std::stoll(text, &used);
        if (used == text.size()) t = n;
      } catch (const std::exception&) {
      }
    }
    if (!t.is_number_integer() || t.get<int64_t>() < -1) {
      return invalidArgument(
          "RefreshNodesRequest.decommissionTimeout: expected seconds (an integer, -1 for no "
          "timeout), got {}",
          t.dump());
    }
    r.timeoutS = t.get<int64_t>();
  }
  return r;
}

}  // namespace

void RmService::handle(HttpRequest req, Respond respond) {
  // After a failed or fenced store write nothing this core answers is durable: a deposed HA
  // leader stands by, and its in-flight calls are refused so that clients retry on the new
  // active RM (which never saw them) instead of trusting an answer that is lost.
  respond = [this, inner = std::move(respond)](HttpResponse r) {
    if (core_.storeFailed()) {
      r = standbyException(
          "this ResourceManager's state store write was refused (another ResourceManager is "
          "active); the call was not applied");
    }
    inner(std::move(r));
  };
  if (req.path.starts_with(kRpc)) {
    if (req.method != "POST") return respond(wrongMethod(req));
    return handleRpc(req, respond);
  }
  if (req.path.starts_with(kCluster)) {
    // RMWebServices consumes both: an XML body is read as the JSON tree its JSON form is.
    if (protocol::isXmlContentType(req.contentType) &&
        req.body.find_first_not_of(" \t\r\n") != std::string::npos) {
      auto j = protocol::xmlToJson(req.body);
      if (!j) return respond(error(j.status().withContext(req.method + " " + req.path)));
      req.body = j->dump();
    }
    // RMWebServices produces both: XML when the Accept header asks for it first.
    if (protocol::acceptsXmlFirst(req.accept)) {
      respond = [inner = std::move(respond)](HttpResponse r) {
        if (r.contentType == "application/json" && !r.body.empty()) {
          json j = json::parse(r.body, nullptr, false);
          if (!j.is_discarded()) {
            r.body = protocol::jsonToXml(j);
            r.contentType = "application/xml";
          }
        }
        inner(std::move(r));
      };
    }
    return handleRest(req, respond);
  }
  // The web UI's pages at / and /ui/ (src/webui/assets.h); they read the REST API above.
  if (auto page = webui::uiResponse(req)) return respond(std::move(*page));
  respond(notFoundPath(req));
}

// Decodes `T` on this thread, then runs `call` on the scheduler thread with it, timing the call
// as `method` (rpc_timings.h). `postHow`: the loop's post, or postFirst for the calls an AM
// waits on (scheduler_loop.h).
#define SPINDLE_RPC(T, method, postHow, call)                                   \
  do {                                                                          \
    auto decoded = protocol::decode<protocol::T>(req.body);                     \
    if (!decoded) return respond(error(decoded.status()));                      \
    loop_.postHow([this, r = std::move(*decoded), respond = std::move(respond), \
                   receivedUs = req.receivedUs]() mutable {                     \
      timed(method, receivedUs, respond, [&] { return call; });                 \
    });                                                                         \
    return;                                                                     \
  } while (false)

template <class Call>
void RmService::timed(RpcMethod method, int64_t receivedUs, Respond& respond, const Call& call) {
  RpcTimings::Method& m = timings_.of(method);
  const int64_t startUs = steadyNowUs();
  m.queue.record(startUs - receivedUs);
  HttpResponse answer = call();
  m.processing.record(steadyNowUs() - startUs);
  answer.sentLatency = &m.total;
  respond(std::move(answer));
}

void RmService::handleRpc(HttpRequest& req, Respond& respond) {
  const std::string_view what = std::string_view(req.path).substr(kRpc.size());
  if (what == "resource-tracker/heartbeat") {
    SPINDLE_RPC(NodeHeartbeatRequest, RpcMethod::kNodeHeartbeat, post,
                answerLater(core_.nodeHeartbeat(r)));
  }
  if (what == "resource-tracker/register") {
    auto decoded = protocol::decode<protocol::RegisterNodeManagerRequest>(req.body);
    if (!decoded) return respond(error(decoded.status()));
    // spindle.nodemanager.registration.secret: checked here, on the I/O thread.
    const std::string& secret = core_.settings().nmRegistrationSecret;
    if (!secret.empty() && !sameSecret(decoded->registrationSecret, secret)) {
      return respond(forbidden("NodeManager " + decoded->nodeId + " is not allowed to register: " +
                               (decoded->registrationSecret.empty()
                                    ? "its request carries no registration secret"
                                    : "its registration secret is wrong") +
                               " (spindle.nodemanager.registration.secret)"));
    }
    // The rack, here on the I/O thread as ResourceTrackerService resolves it on its RPC handler
    // thread: a topology script runs once per new host, never on the scheduler thread.
    const std::string host = decoded->nodeId.substr(0, decoded->nodeId.rfind(':'));
    std::string rack = core_.rackResolver().resolve(host);
    loop_.post([this, r = std::move(*decoded), rack = std::move(rack), respond = std::move(respond),
                receivedUs = req.receivedUs]() mutable {
      timed(RpcMethod::kRegisterNodeManager, receivedUs, respond,
            [&] { return ok(protocol::toJson(core_.registerNode(r, rack))); });
    });
    return;
  }
  if (what == "am/allocate") {
    SPINDLE_RPC(AllocateRequest, RpcMethod::kAllocate, postFirst,
                answerLater(core_.allocate(r), /*waited=*/true));
  }
  if (what == "am/register") {
    SPINDLE_RPC(RegisterApplicationMasterRequest, RpcMethod::kRegisterApplicationMaster, postFirst,
                sentNow(answer(core_.registerAm(r))));
  }
  if (what == "am/finish") {
    SPINDLE_RPC(FinishApplicationMasterRequest, RpcMethod::kFinishApplicationMaster, postFirst,
                sentNow(answer(core_.finishAm(r))));
  }
  respond(notFoundPath(req));
}

#undef SPINDLE_RPC

void RmService::handleRest(HttpRequest& req, Respond& respond) {
  std::string_view rest = std::string_view(req.path).substr(kCluster.size());
  while (rest.ends_with('/')) rest.remove_suffix(1);
  const bool get = req.method == "GET";
  auto onLoop = [this, &respond](auto fn) {
    loop_.post([fn = std::move(fn), respond = std::move(respond)] { respond(fn()); });
  };
  RmCore& core = core_;
  if (rest.starts_with("/reservation/")) {
    // The reservation ACLs name the caller of every verb, listing included.
    auto who = caller(req, core_.settings());
    if (!who) return respond(error(who.status()));
    return handleReservation(req, respond, rest.substr(12), *who);
  }
  // The caller of a write; a GET needs none.
  std::string user;
  if (!get) {
    auto who = caller(req, core_.settings());
    if (!who) return respond(error(who.status()));
    user = std::move(*who);
  }
  if (handleNodeAttributes(rest, req, respond, user)) return;
  if (handleClientOps(rest, req, respond, user)) return;
  if (rest == "/spindle/decisions") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core, q = req.query] { return answerJson(core.decisions(q)); });
  }
  // Server-side pages of the long lists (webui/list_page.h), for the web UI's tables.
  if (rest == "/spindle/apps" || rest == "/spindle/nodes") {
    if (!get) return respond(wrongMethod(req));
    const bool apps = rest == "/spindle/apps";
    return onLoop([&core, q = req.query, apps] {
      return answerJson(apps ? core.appsPage(q) : core.nodesPage(q));
    });
  }
  if (rest == "/spindle/rpc-timings") {
    if (!get) return respond(wrongMethod(req));
    return respond(ok(timings_.toJson()));  // atomics: answered here, not on the scheduler
  }
  if (rest == "/spindle/node-summary") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core] { return ok(core.nodeSummary()); });
  }
  if (rest.starts_with("/spindle/app-decisions/")) {
    if (!get) return respond(wrongMethod(req));
    return onLoop(
        [&core, id = std::string(rest.substr(23))] { return answerJson(core.appDecisions(id)); });
  }
  if (rest.empty() || rest == "/info") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core] { return ok(core.clusterInfo()); });
  }
  if (rest == "/metrics") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core] { return ok(core.metrics()); });
  }
  if (rest == "/scheduler") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core] { return ok(core.scheduler()); });
  }
  if (rest == "/admin/refresh-nodes") {
    // Spindle's REST form of AdminService.refreshNodes (YARN has it over RPC only).
    if (req.method != "POST" && req.method != "PUT") return respond(wrongMethod(req));
    auto r = decodeRefreshNodes(req.body);
    if (!r) return respond(error(r.status()));
    return onLoop([&core, rq = *r, user] {
      if (auto denied = core.denyAdmin(user, "refreshNodes")) return forbidden(*denied);
      return answerJson(core.refreshNodes(rq));
    });
  }
  if (rest == "/nodes") {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core, q = req.query] { return answerJson(core.nodes(q)); });
  }
  if (rest.starts_with("/nodes/")) {
    if (!get) return respond(wrongMethod(req));
    return onLoop([&core, id = std::string(rest.substr(7))] { return answerJson(core.node(id)); });
  }
  if (rest == "/apps/new-application") {
    if (req.method != "POST") return respond(wrongMethod(req));
    return onLoop([&core] { return ok(core.newApplication()); });
  }
  if (rest == "/apps") {
    if (get) return onLoop([&core, q = req.query] { return answerJson(core.apps(q)); });
    if (req.method != "POST") return respond(wrongMethod(req));
    auto ctx = protocol::decodeSubmissionContext(req.body);
    if (!ctx) return respond(error(ctx.status()));
    return onLoop([&core, c = std::move(*ctx), user] {
      if (auto denied = core.denySubmit(user, c)) return forbidden(*denied);
      auto id = core.submit(c, user);
      if (!id) return error(id.status());
      HttpResponse r(202, "");
      r.headers.emplace_back("Location", std::string(kCluster) + "/apps/" + *id);
      return r;
    });
  }
  if (rest.starts_with("/apps/")) {
    std::string_view tail = rest.substr(6);
    const size_t slash = tail.find('/');
    std::string id(tail.substr(0, slash));
    const std::string_view sub = slash == std::string_view::npos ? "" : tail.substr(slash);
    if (sub.empty()) {
      if (!get) return respond(wrongMethod(req));
      return onLoop([&core, id] { return answerJson(core.app(id)); });
    }
    if (sub == "/appattempts") {
      if (!get) return respond(wrongMethod(req));
      return onLoop([&core, id] { return answerJson(core.appAttempts(id)); });
    }
    if (sub == "/queue") {
      if (get) return onLoop([&core, id] { return answerJson(core.appQueue(id)); });
      if (req.method != "PUT") return respond(wrongMethod(req));
      auto target = protocol::decodeAppQueueTarget(req.body);
      if (!target) return respond(error(target.status()));
      return onLoop([&core, id, q = *target, user] {
        if (auto denied = core.denyMove(id, user, q)) return forbidden(*denied);
        return answerJson(core.moveApp(id, q));
      });
    }
    if (sub == "/state") {
      if (get) return onLoop([&core, id] { return answerJson(core.appState(id)); });
      if (req.method != "PUT") return respond(wrongMethod(req));
      auto target = protocol::decodeAppStateTarget(req.body);
      if (!target) return respond(error(target.status()));
      return onLoop([&core, id, user] {
        if (auto denied = core.denyModify(id, user)) return forbidden(*denied);
        return answerJson(core.killApp(id));
      });
    }
  }
  respond(notFoundPath(req));
}

}  // namespace spindle::rm
