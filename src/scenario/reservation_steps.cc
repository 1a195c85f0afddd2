#include "scenario/reservation_steps.h"

#include <charconv>

#include "base/json_parse.h"
#include "dao/reservation_view.h"

namespace spindle {

using nlohmann::json;
using reservation::ReservationDefinition;
using reservation::ReservationRequest;

namespace {

// A long given as a number or as a string holding one (YARN's JSON examples quote them).
Result<int64_t> longField(const JsonReader& r, std::string_view key, std::optional<int64_t> def) {
  if (!r.has(key)) {
    if (def) return *def;
    return r.error("missing '{}'", key);
  }
  const json& v = r.json()[std::string(key)];
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    int64_t out = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && p == s.data() + s.size()) return out;
  }
  return invalidArgument("{}: expected an integer, got {}", r.pathOf(key), briefJson(v));
}

Result<ReservationRequest> parseRequest(const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(
      r.onlyKeys({"capability", "num-containers", "min-concurrency", "duration"}));
  ReservationRequest rr;
  SPINDLE_ASSIGN_OR_RETURN(JsonReader cap, r.child("capability"));
  SPINDLE_RETURN_IF_ERROR(cap.onlyKeys({"memory", "vCores"}));
  SPINDLE_ASSIGN_OR_RETURN(int64_t mem, longField(cap, "memory", std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(int64_t vcores, longField(cap, "vCores", 1));
  rr.capability = Resource::of(mem, vcores);
  // Proto defaults: num-containers 1, min-concurrency 1, duration -1.
  SPINDLE_ASSIGN_OR_RETURN(rr.numContainers, longField(r, "num-containers", 1));
  SPINDLE_ASSIGN_OR_RETURN(rr.concurrency, longField(r, "min-concurrency", 1));
  SPINDLE_ASSIGN_OR_RETURN(rr.durationMs, longField(r, "duration", -1));
  return rr;
}

Result<ReservationDefinition> parseDefinition(const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"arrival", "deadline", "reservation-requests",
                                      "reservation-name", "priority", "recurrence-expression"}));
  ReservationDefinition def;
  SPINDLE_ASSIGN_OR_RETURN(def.arrival, longField(r, "arrival", std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(def.deadline, longField(r, "deadline", std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(def.name, r.getString("reservation-name", ""));
  if (r.has("recurrence-expression")) {
    const json& v = r.json()["recurrence-expression"];
    def.recurrenceExpression = v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (r.has("priority")) {
    SPINDLE_ASSIGN_OR_RETURN(int64_t prio, longField(r, "priority", 0));
    def.priority = static_cast<int>(prio);
  }
  if (!r.has("reservation-requests")) return def;  // the validator refuses it, with YARN's text
  SPINDLE_ASSIGN_OR_RETURN(JsonReader reqs, r.child("reservation-requests"));
  SPINDLE_RETURN_IF_ERROR(
      reqs.onlyKeys({"reservation-request-interpreter", "reservation-request"}));
  SPINDLE_ASSIGN_OR_RETURN(int64_t interp, longField(reqs, "reservation-request-interpreter", 1));
  auto interpreter = reservation::interpreterFromInt(interp);
  if (!interpreter) {
    return invalidArgument("{}: {}", reqs.pathOf("reservation-request-interpreter"),
                           interpreter.status().message());
  }
  def.interpreter = *interpreter;
  if (reqs.has("reservation-request")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader list, reqs.child("reservation-request"));
    if (list.json().is_object()) {  // YARN's JSON writes a one-element list as the element
      SPINDLE_ASSIGN_OR_RETURN(ReservationRequest rr, parseRequest(list));
      def.stages.push_back(rr);
    } else {
      SPINDLE_RETURN_IF_ERROR(list.expectArray());
      for (size_t i = 0; i < list.json().size(); ++i) {
        SPINDLE_ASSIGN_OR_RETURN(ReservationRequest rr, parseRequest(list.at(i)));
        def.stages.push_back(rr);
      }
    }
  }
  return def;
}

Result<ReservationBody> parseBody(const JsonReader& r, bool withDefinition) {
  ReservationBody b;
  SPINDLE_ASSIGN_OR_RETURN(b.reservation, r.getString("reservation-id", ""));
  SPINDLE_ASSIGN_OR_RETURN(b.user, r.getString("user", "user"));
  if (withDefinition && r.has("reservation-definition")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader d, r.child("reservation-definition"));
    auto def = parseDefinition(d);
    if (def) {
      b.definition = *def;
    } else {
      b.definitionError =
          invalidArgument("reservation {}: {}", b.reservation.empty() ? "(no id)" : b.reservation,
                          def.status().message());
    }
  }
  return b;
}

std::optional<reservation::ReservationId> idOf(const std::string& handle,
                                               const ExpectContext& ctx) {
  if (ctx.reservationIds != nullptr) {
    if (auto it = ctx.reservationIds->find(handle); it != ctx.reservationIds->end()) {
      return it->second;
    }
  }
  if (auto id = reservation::ReservationId::parse(handle)) return *id;
  return std::nullopt;
}

// <type> (memory = memory-mb) of `r`, the type's parts starting at p[from].
Result<json> typePath(const std::vector<std::string>& p, size_t from, const std::string& path,
                      const ExpectContext& ctx, const Resource& r) {
  if (p.size() <= from) return invalidArgument("expected a resource type at the end of {}", path);
  std::string type;
  for (size_t i = from; i < p.size(); ++i) type += (i > from ? "." : "") + p[i];
  if (type == "memory") type = "memory-mb";
  auto idx = ctx.scheduler.cluster().types().indexOf(type);
  if (!idx) return notFound("unknown resource type '{}' in {}", type, path);
  return json(r.get(*idx));
}

// <ms>.<type> after an `at`: the value of `skyline` at ms.
Result<json> atPath(const std::vector<std::string>& p, size_t from, const std::string& path,
                    const ExpectContext& ctx, const std::function<Resource(int64_t)>& valueAt) {
  if (p.size() < from + 2) return invalidArgument("expected at.<ms>.<resource type> in {}", path);
  int64_t t = 0;
  auto [q, ec] = std::from_chars(p[from].data(), p[from].data() + p[from].size(), t);
  if (ec != std::errc() || q != p[from].data() + p[from].size()) {
    return invalidArgument("'{}' is not a time in ms in {}", p[from], path);
  }
  return typePath(p, from + 1, path, ctx, valueAt(t));
}

}  // namespace

Result<StepBody> parseReservationStep(const std::string& op, const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(r.expectObject());
  if (op == "submitReservation") {
    SPINDLE_RETURN_IF_ERROR(
        r.onlyKeys({"queue", "reservation-id", "reservation-definition", "user"}));
    SubmitReservationStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.queue, r.getString("queue", ""));
    SPINDLE_ASSIGN_OR_RETURN(s.body, parseBody(r, true));
    return StepBody(std::move(s));
  }
  if (op == "updateReservation") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"reservation-id", "reservation-definition", "user"}));
    UpdateReservationStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.body, parseBody(r, true));
    return StepBody(std::move(s));
  }
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"reservation-id", "user"}));
  DeleteReservationStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.body, parseBody(r, false));
  return StepBody(std::move(s));
}

Result<json> reservationStatePath(const std::string& view, const std::vector<std::string>& p,
                                  const std::string& path, const ExpectContext& ctx) {
  if (ctx.reservations == nullptr) {
    return failedPrecondition(
        "no reservation system (yarn.resourcemanager.reservation-system.enable) for {}", path);
  }
  if (view == "plan") {
    // The plan queue's name may contain dots (root.dedicated): the longest prefix naming one.
    for (size_t k = p.size(); k >= 1; --k) {
      std::string name;
      for (size_t i = 0; i < k; ++i) name += (i ? "." : "") + p[i];
      const reservation::InMemoryPlan* plan = ctx.reservations->plan(name);
      if (plan == nullptr) continue;
      if (k == p.size()) return invalidArgument("expected a field of the plan in {}", path);
      const std::string& f = p[k];
      if (f == "reservationCount" && k + 1 == p.size()) return json(plan->size());
      if (f == "at") {
        return atPath(p, k + 1, path, ctx,
                      [&](int64_t t) { return plan->totalCommittedResources(t); });
      }
      if (f == "capacity") return typePath(p, k + 1, path, ctx, plan->totalCapacity());
      if (f == "user" && k + 2 < p.size() && p[k + 2] == "at") {
        const std::string& user = p[k + 1];
        return atPath(p, k + 3, path, ctx,
                      [&](int64_t t) { return plan->userResourcesAtTime(user, t); });
      }
      return invalidArgument(
          "expected plan:<queue>.reservationCount, .capacity.<type>, .at.<ms>.<type> or "
          ".user.<user>.at.<ms>.<type> in {}",
          path);
    }
    return notFound("no reservable queue is named in {}", path);
  }
  // reservation:<handle>...
  std::optional<reservation::ReservationId> id = idOf(p[0], ctx);
  if (!id) return notFound("unknown reservation handle '{}' in {}", p[0], path);
  const reservation::InMemoryPlan* plan = ctx.reservations->planOf(*id);
  const reservation::ReservationAllocation* r = plan ? plan->reservationById(*id) : nullptr;
  if (p.size() >= 2 && p[1] == "at") {
    return atPath(p, 2, path, ctx,
                  [&](int64_t t) { return r == nullptr ? Resource() : r->resourcesAtTime(t); });
  }
  if (r == nullptr) return json(nullptr);
  json item = reservationInfoView(*r, /*includeResourceAllocations=*/true);
  const json* cur = &item;
  for (size_t i = 1; i < p.size(); ++i) {
    if (cur->is_array()) {
      size_t idx = 0;
      auto [q, ec] = std::from_chars(p[i].data(), p[i].data() + p[i].size(), idx);
      if (ec != std::errc() || q != p[i].data() + p[i].size() || idx >= cur->size()) {
        return notFound("'{}' in {} is not an index of an array of {}", p[i], path, cur->size());
      }
      cur = &(*cur)[idx];
      continue;
    }
    if (!cur->is_object() || !cur->contains(p[i])) {
      return notFound("no field '{}' (in {})", p[i], path);
    }
    cur = &(*cur)[p[i]];
  }
  return *cur;
}

}  // namespace spindle
