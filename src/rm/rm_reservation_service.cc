// RmService: the reservation REST API (RMWebServices' reservation resources). Bodies are
// decoded here, on the I/O thread; the ACL check and the verb run on the scheduler thread.
//   POST new-reservation  200 {"reservation-id"}
//   POST submit           202, no body (RMWebServices answers Accepted)
//   POST update, delete   200 {} (the empty ReservationUpdateResponseInfo / ...DeleteResponseInfo)
//   GET  list             200 ReservationListInfo
// A refused request is 400 with the reservation system's message; a reservation ACL denial is
// 403 AccessControlException.
#include "protocol/rest_records.h"
#include "rm/rest_answers.h"
#include "rm/rm_service.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
using protocol::Respond;

namespace {

// The ACL check, then the verb.
template <typename Verb>
HttpResponse checked(RmCore& core, const std::string& user, RmCore::ReservationAcl acl,
                     const std::string& queue, const std::optional<reservation::ReservationId>& id,
                     Verb verb) {
  auto deny = core.denyReservation(user, acl, queue, id);
  if (!deny) return error(deny.status());
  if (*deny) return forbidden(**deny);
  return verb();
}

}  // namespace

void RmService::handleReservation(HttpRequest& req, Respond& respond, std::string_view what,
                                  const std::string& user) {
  RmCore& core = core_;
  auto onLoop = [this, &respond](auto fn) {
    loop_.post([fn = std::move(fn), respond = std::move(respond)] { respond(fn()); });
  };
  auto wrongMethod = [&] {
    json j = {{"RemoteException",
               {{"exception", "WebApplicationException"},
                {"message", "method " + req.method + " is not allowed on " + req.path},
                {"javaClassName", "org.apache.hadoop.yarn.webapp.WebApplicationException"}}}};
    respond(HttpResponse(405, j.dump()));
  };
  const bool post = req.method == "POST";
  if (what == "/new-reservation") {
    if (!post) return wrongMethod();
    return onLoop([&core] { return answerJson(core.newReservation()); });
  }
  if (what == "/submit") {
    if (!post) return wrongMethod();
    auto sub = decodeReservationSubmission(req.body);
    if (!sub) return respond(error(sub.status()));
    return onLoop([&core, s = std::move(*sub), user] {
      return checked(core, user, RmCore::ReservationAcl::kSubmit, s.queue, std::nullopt, [&] {
        auto r = core.submitReservation(s, user);
        return r ? HttpResponse(202, "") : error(r.status());
      });
    });
  }
  if (what == "/update") {
    if (!post) return wrongMethod();
    auto up = decodeReservationUpdate(req.body);
    if (!up) return respond(error(up.status()));
    return onLoop([&core, u = std::move(*up), user] {
      return checked(core, user, RmCore::ReservationAcl::kAdminister, "", u.id,
                     [&] { return answerJson(core.updateReservation(u, user)); });
    });
  }
  if (what == "/delete") {
    if (!post) return wrongMethod();
    auto id = decodeReservationDelete(req.body);
    if (!id) return respond(error(id.status()));
    return onLoop([&core, i = *id, user] {
      return checked(core, user, RmCore::ReservationAcl::kAdminister, "", i,
                     [&] { return answerJson(core.deleteReservation(i, user)); });
    });
  }
  if (what == "/list") {
    if (req.method != "GET") return wrongMethod();
    auto list = decodeReservationList(req.query);
    if (!list) return respond(error(list.status()));
    return onLoop([&core, l = std::move(*list), user] {
      return checked(core, user, RmCore::ReservationAcl::kList, l.queue, l.query.id,
                     [&] { return answerJson(core.listReservations(l)); });
    });
  }
  respond(error(notFound("no such resource: {}", req.path)));
}

}  // namespace spindle::rm
