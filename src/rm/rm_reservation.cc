// RmCore: the reservation verbs (ClientRMService.getNewReservation, submitReservation,
// updateReservation, deleteReservation, listReservations) over the Driver's ReservationSystem,
// and the reservation ACLs (ReservationsACLsManager and ClientRMService.checkReservationACLs).
// The ACLs are the plan queue's acl_submit_reservations, acl_list_reservations and
// acl_administer_reservations (capacity-scheduler.xml, default "*", not inherited) or the
// allocation file's aclSubmitReservations, aclListReservations and aclAdministerReservations
// (Fair Scheduler, default "*"); they apply when yarn.acl.enable and yarn.acl.reservation-enable
// are both true.
#include "base/log.h"
#include "dao/reservation_view.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/reservation_system.h"

namespace spindle::rm {

using nlohmann::json;
using reservation::ReservationId;

namespace {

constexpr const char* kReservationAclEnable = "yarn.acl.reservation-enable";

Status notEnabled() {
  return failedPrecondition("Reservation is not enabled. Please enable & try again");
}

// ReservationACL's name (in the AccessControlException) and its capacity-scheduler.xml key.
const char* aclName(RmCore::ReservationAcl acl) {
  switch (acl) {
    case RmCore::ReservationAcl::kSubmit: return "SUBMIT_RESERVATIONS";
    case RmCore::ReservationAcl::kList: return "LIST_RESERVATIONS";
    case RmCore::ReservationAcl::kAdminister: return "ADMINISTER_RESERVATIONS";
  }
  return "";
}

const char* aclKey(RmCore::ReservationAcl acl) {
  switch (acl) {
    case RmCore::ReservationAcl::kSubmit: return "acl_submit_reservations";
    case RmCore::ReservationAcl::kList: return "acl_list_reservations";
    case RmCore::ReservationAcl::kAdminister: return "acl_administer_reservations";
  }
  return "";
}

}  // namespace

Result<json> RmCore::newReservation() {
  ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) return notEnabled();
  return json{{"reservation-id", rs->newReservationId().toString()}};
}

Result<json> RmCore::submitReservation(const ReservationSubmission& r, const std::string& user) {
  ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) return notEnabled();
  FlushOnReturn flushOnReturn(*this);
  // The plan's capacity is read from the queues, which node events leave for settle().
  driver_->settle();
  reservation::PlanStatus s = rs->submit(r.queue, r.id, &r.definition, user);
  if (!s) return s.toStatus();
  markReservationDirty(r.id->toString());
  return json::object();
}

Result<json> RmCore::updateReservation(const ReservationUpdate& r, const std::string& user) {
  ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) return notEnabled();
  FlushOnReturn flushOnReturn(*this);
  // The plan's capacity is read from the queues, which node events leave for settle().
  driver_->settle();
  reservation::PlanStatus s = rs->update(r.id, &r.definition, user);
  if (!s) return s.toStatus();
  markReservationDirty(r.id.toString());
  return json::object();
}

Result<json> RmCore::deleteReservation(const std::optional<ReservationId>& id,
                                       const std::string& user) {
  ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) return notEnabled();
  FlushOnReturn flushOnReturn(*this);
  reservation::PlanStatus s = rs->remove(id, user);
  if (!s) return s.toStatus();
  markReservationDirty(id->toString());
  return json::object();
}

// RMStateStore.storeReservationState / removeReservationState: an accepted reservation is
// written with the plan queue, owner, contract and the agent's intervals; one no plan holds
// any more (deleted, replanned away, archived) is erased.
void RmCore::putReservation(store::StoreBatch& batch, const std::string& text) const {
  const ReservationSystem* rs = driver_->reservationSystem();
  auto id = ReservationId::parse(text);
  const reservation::InMemoryPlan* plan = rs && id ? rs->planOf(*id) : nullptr;
  const reservation::ReservationAllocation* r = plan ? plan->reservationById(*id) : nullptr;
  if (r == nullptr) {
    batch.erase(store::RecordKind::kReservation, text);
    return;
  }
  store::StoredReservation s;
  s.reservationId = text;
  s.planQueue = rs->planPath(*plan);
  s.user = r->user();
  s.acceptanceTime = r->acceptanceTime();
  s.startTime = r->startTime();
  s.endTime = r->endTime();
  s.periodicity = r->periodicity();
  s.definition = reservationDefinitionView(r->definition());
  for (const auto& [interval, res] : r->allocationRequests()) {
    s.allocations.push_back(
        {interval.start, interval.end, res.memoryMb(), static_cast<int32_t>(res.vcores())});
  }
  batch.put(store::RecordKind::kReservation, text, store::toJson(s));
}

// AbstractReservationSystem.recover: each plan's reservations back as accepted, then the plan
// follower, so the reservation queues exist before the apps in them come back.
Status RmCore::recoverReservations(const store::StoreSnapshot& snap) {
  const auto& stored = snap.of(store::RecordKind::kReservation);
  ReservationSystem* rs = driver_->reservationSystem();
  const bool restarted = !stored.empty() || !snap.of(store::RecordKind::kApp).empty();
  if (rs != nullptr && restarted) rs->restartIds(clock_.nowMs());
  if (stored.empty()) return Status::ok();
  size_t recovered = 0;
  for (const auto& [key, value] : stored) {
    const std::string where = "state store " + store_->name() + ": reservation " + key;
    auto s = store::storedReservationFromJson(value);
    if (!s) return s.status().withContext(where);
    // The stored definition is the REST shape: the submission decoder reads it back.
    auto sub = decodeReservationSubmission(json{
        {"queue", s->planQueue},
        {"reservation-id", s->reservationId},
        {"reservation-definition",
         s->definition}}.dump());
    if (!sub) return sub.status().withContext(where);
    if (rs == nullptr) {
      // Kept in the store: enabling the reservation system again brings it back.
      SPINDLE_LOG_WARN("{} is not recovered: the reservation system is not enabled", where);
      continue;
    }
    reservation::IntervalAllocations intervals;
    for (const auto& i : s->allocations) {
      intervals.push_back({{i.start, i.end}, Resource::of(i.memoryMb, i.vcores)});
    }
    const reservation::InMemoryPlan* plan = rs->plan(s->planQueue);
    reservation::ReservationAllocation alloc(*sub->id, std::move(sub->definition), s->user,
                                             plan ? plan->queueName() : s->planQueue, s->startTime,
                                             s->endTime, std::move(intervals), s->periodicity);
    alloc.setAcceptanceTime(s->acceptanceTime);
    if (Status st = rs->recover(s->planQueue, std::move(alloc)); !st.isOk()) {
      // A queue no longer reservable: kept in the store, as above.
      SPINDLE_LOG_WARN("{} is not recovered: {}", where, st.message());
      continue;
    }
    ++recovered;
  }
  SPINDLE_LOG_INFO("recovered {} of {} reservations from {}", recovered, stored.size(),
                   store_->name());
  if (recovered == 0) return Status::ok();
  // No replanning before the NodeManagers are back (the scheduling wait): the plans' capacity
  // is the cluster's, which is empty until they register again.
  rs->setReplanning(false);
  reservationsRecovered_ = recovered;
  auto out = driver_->followPlansNow();
  if (!out) return out.status().withContext("the plan follower after recovering reservations");
  apply(*out);
  return Status::ok();
}

Result<json> RmCore::listReservations(const ReservationListRequest& r) {
  const ReservationSystem* rs = driver_->reservationSystem();
  if (rs == nullptr) return notEnabled();
  // ReservationInputValidator.validateReservationListRequest.
  const reservation::InMemoryPlan* plan = rs->plan(r.queue);
  if (plan == nullptr) {
    return invalidArgument(
        "The specified queue: {} is not managed by reservation system. Please try again with a "
        "valid reservable queue.",
        r.queue);
  }
  return reservationListView(*plan, r.query);
}

Result<std::optional<std::string>> RmCore::denyReservation(
    const std::string& user, ReservationAcl acl, const std::string& queue,
    const std::optional<ReservationId>& id) const {
  if (!settings_.aclEnabled) return std::optional<std::string>();
  SPINDLE_ASSIGN_OR_RETURN(bool enabled, conf_.getBool(kReservationAclEnable, false));
  const ReservationSystem* rs = driver_->reservationSystem();
  if (!enabled || rs == nullptr) return std::optional<std::string>();
  // The named queue's plan; without a queue (update, delete) the reservation's.
  const reservation::InMemoryPlan* plan =
      !queue.empty() ? rs->plan(queue) : (id ? rs->planOf(*id) : nullptr);
  if (plan == nullptr) return std::optional<std::string>();
  const std::string path = rs->planPath(*plan);
  // The reservation's owner may always alter or list it.
  if (id) {
    const reservation::ReservationAllocation* r = plan->reservationById(*id);
    if (r != nullptr && r->user() == user) return std::optional<std::string>();
  }
  const std::vector<std::string> groups = groups_.groupsOf(user);
  // The plan queue's ACL string for `a` ("*" when unset).
  auto allows = [&](ReservationAcl a) -> Result<bool> {
    std::string text = "*";
    std::string where;
    if (const auto* fs = dynamic_cast<const FairScheduler*>(&sched())) {
      const fair::FairQueueConfig* q = fs->queues().config().find(path);
      const std::optional<std::string>* v = nullptr;
      if (q != nullptr) {
        v = a == ReservationAcl::kSubmit ? &q->aclSubmitReservations
            : a == ReservationAcl::kList ? &q->aclListReservations
                                         : &q->aclAdministerReservations;
      }
      if (v != nullptr && v->has_value()) text = **v;
      where = "the allocation file's reservation ACL of " + path;
    } else {
      where = "yarn.scheduler.capacity." + path + "." + aclKey(a);
      text = conf_.get(where, "*");
    }
    auto parsed = parseAccessControlList(text);
    if (!parsed) return invalidArgument("{}: {}", where, parsed.status().message());
    return parsed->allows(user, groups);
  };
  SPINDLE_ASSIGN_OR_RETURN(bool direct, allows(acl));
  if (direct) return std::optional<std::string>();
  SPINDLE_ASSIGN_OR_RETURN(bool administer, allows(ReservationAcl::kAdminister));
  if (administer) return std::optional<std::string>();
  return std::optional<std::string>("User " + user + " cannot perform operation " + aclName(acl) +
                                    " on queue " + path);
}

}  // namespace spindle::rm
