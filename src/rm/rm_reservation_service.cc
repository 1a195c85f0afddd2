// RmService: the reservation REST API (RMWebServices' reservation resources). Bodies are
// decoded here, on the I/O thread; the ACL check and the verb run on the scheduler thread.
//   POST new-reservation  200 {"reservation-id"}
//   POST submit           202, no body (RMWebServices answers Accepted)
//   POST update, delete   200 {} (the empty ReservationUpdateResponseInfo / ...DeleteResponseInfo)
//   GET  list             200 ReservationListInfo
// A refused request is 400 with the reservation system's message; a reservation ACL denial is
// 403 AccessControlException.
#include "protocol/rest_records.h"
#include "rm/rm_service.h"

namespace spindle::rm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
using protocol::Respond;

namespace {

HttpResponse failure(const Status& s) {
  return {protocol::httpStatusFor(s), protocol::remoteException(s).dump()};
}

// Hadoop's AccessControlException, as ClientRMService raises a refused reservation ACL.
HttpResponse denied(const std::string& message) {
  json j = {{"RemoteException",
             {{"exception", "AccessControlException"},
              {"message", message},
              {"javaClassName", "org.apache.hadoop.security.AccessControlException"}}}};
  return {403, j.dump()};
}

HttpResponse answer(const Result<json>& r, int status = 200) {
  if (!r) return failure(r.status());
  return {status, r->dump()};
}

// The ACL check, then the verb.
template <typename Verb>
HttpResponse checked(RmCore& core, const std::string& user, RmCore::ReservationAcl acl,
                     const std::string& queue, const std::optional<reservation::ReservationId>& id,
                     Verb verb) {
  auto deny = core.denyReservation(user, acl, queue, id);
  if (!deny) return failure(deny.status());
  if (*deny) return denied(**deny);
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
    return onLoop([&core] { return answer(core.newReservation()); });
  }
  if (what == "/submit") {
    if (!post) return wrongMethod();
    auto sub = decodeReservationSubmission(req.body);
    if (!sub) return respond(failure(sub.status()));
    return onLoop([&core, s = std::move(*sub), user] {
      return checked(core, user, RmCore::ReservationAcl::kSubmit, s.queue, std::nullopt, [&] {
        auto r = core.submitReservation(s, user);
        return r ? HttpResponse(202, "") : failure(r.status());
      });
    });
  }
  if (what == "/update") {
    if (!post) return wrongMethod();
    auto up = decodeReservationUpdate(req.body);
    if (!up) return respond(failure(up.status()));
    return onLoop([&core, u = std::move(*up), user] {
      return checked(core, user, RmCore::ReservationAcl::kAdminister, "", u.id,
                     [&] { return answer(core.updateReservation(u, user)); });
    });
  }
  if (what == "/delete") {
    if (!post) return wrongMethod();
    auto id = decodeReservationDelete(req.body);
    if (!id) return respond(failure(id.status()));
    return onLoop([&core, i = *id, user] {
      return checked(core, user, RmCore::ReservationAcl::kAdminister, "", i,
                     [&] { return answer(core.deleteReservation(i, user)); });
    });
  }
  if (what == "/list") {
    if (req.method != "GET") return wrongMethod();
    auto list = decodeReservationList(req.query);
    if (!list) return respond(failure(list.status()));
    return onLoop([&core, l = std::move(*list), user] {
      return checked(core, user, RmCore::ReservationAcl::kList, l.queue, l.query.id,
                     [&] { return answer(core.listReservations(l)); });
    });
  }
  respond(failure(notFound("no such resource: {}", req.path)));
}

}  // namespace spindle::rm
