// The reservation REST bodies (reservation_requests.h) and RmCore's reservation verbs and ACLs
// on a SimulatedClock.
#include <gtest/gtest.h>

#include "rm/reservation_requests.h"
#include "rm/rm_core.h"
#include "store/memory_store.h"

namespace spindle::rm {
namespace {

using reservation::Interpreter;
using reservation::ReservationId;

constexpr const char* kSubmission = R"({"queue": "dedicated",
  "reservation-id": "reservation_1404198295326_0003",
  "reservation-definition": {"arrival": "1765541532000", "deadline": 1765542252000,
    "reservation-name": "res_1", "recurrence-expression": 3600000, "priority": 2,
    "reservation-requests": {"reservation-request-interpreter": 0,
      "reservation-request": {"capability": {"memory": "1024", "vCores": "1"},
                              "num-containers": 220, "min-concurrency": 220,
                              "duration": 60000}}}})";

TEST(ReservationRequestsTest, DecodesSubmissionsAsJerseyWritesThem) {
  auto s = decodeReservationSubmission(kSubmission);
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_EQ(s->queue, "dedicated");
  EXPECT_EQ(s->id, ReservationId::of(1404198295326, 3));
  EXPECT_EQ(s->definition.arrival, 1765541532000);
  EXPECT_EQ(s->definition.recurrenceExpression, "3600000");
  EXPECT_EQ(s->definition.priority, 2);
  EXPECT_EQ(s->definition.interpreter, Interpreter::kAny);
  ASSERT_EQ(s->definition.stages.size(), 1u);
  EXPECT_EQ(s->definition.stages[0].capability, Resource::of(1024, 1));
  EXPECT_EQ(s->definition.stages[0].concurrency, 220);
  // Wrapped in the XML root name, too.
  auto wrapped = decodeReservationSubmission(std::string(R"({"reservation-submission-context": )") +
                                             kSubmission + "}");
  ASSERT_TRUE(wrapped) << wrapped.status().message();
  EXPECT_EQ(wrapped->definition.stages[0].numContainers, 220);
}

TEST(ReservationRequestsTest, RefusesMalformedBodiesWithYarnsMessages) {
  EXPECT_EQ(decodeReservationSubmission("").status().message(),
            "Input ReservationSubmissionContext should not be null");
  EXPECT_EQ(decodeReservationSubmission(R"({"queue": "dedicated"})").status().message(),
            "Input ReservationDefinition should not be null");
  EXPECT_EQ(decodeReservationSubmission(
                R"({"queue": "q", "reservation-definition": {"arrival": 1, "deadline": 2}})")
                .status()
                .message(),
            "The ReservationDefinition should contain at least one ReservationRequest");
  auto interp = decodeReservationSubmission(
      R"({"reservation-definition": {"arrival": 1, "deadline": 2, "reservation-requests":
          {"reservation-request-interpreter": 7, "reservation-request": []}}})");
  EXPECT_NE(interp.status().message().find("reservation-request-interpreter"), std::string::npos)
      << interp.status().message();
  auto badId = decodeReservationSubmission(R"({"reservation-id": "res_1"})");
  EXPECT_NE(badId.status().message().find("reservation-id"), std::string::npos)
      << badId.status().message();
  auto memory = decodeReservationSubmission(
      R"({"reservation-definition": {"arrival": 1, "deadline": 2, "reservation-requests":
          {"reservation-request": [{"capability": {"memory": "lots"}}]}}})");
  EXPECT_NE(memory.status().message().find("memory: expected an integer"), std::string::npos)
      << memory.status().message();
  EXPECT_EQ(decodeReservationUpdate(R"({"reservation-definition": {}})").status().message(),
            "Update operations must specify an existing ReservaitonId");
  auto del = decodeReservationDelete(R"({"reservation-id": "reservation_1_0006"})");
  ASSERT_TRUE(del);
  EXPECT_EQ(*del, ReservationId::of(1, 6));
  EXPECT_EQ(*decodeReservationDelete("{}"), std::nullopt);
}

TEST(ReservationRequestsTest, ListQueryDefaults) {
  auto q = decodeReservationList({});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->queue, "default");
  EXPECT_EQ(q->query.startTime, 0);
  EXPECT_EQ(q->query.endTime, std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(q->query.includeResourceAllocations);
  auto neg = decodeReservationList(
      {{"start-time", "-5"}, {"end-time", "-1"}, {"include-resource-allocations", "true"}});
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->query.startTime, 0);
  EXPECT_EQ(neg->query.endTime, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(neg->query.includeResourceAllocations);
  EXPECT_EQ(decodeReservationList({{"start-time", "10"}, {"end-time", "5"}}).status().message(),
            "The specified end time must be greater than the specified start time.");
  EXPECT_FALSE(decodeReservationList({{"start-time", "x"}}));
  EXPECT_FALSE(decodeReservationList({{"include-resource-allocations", "yes"}}));
}

class RmReservationTest : public ::testing::Test {
 protected:
  void make(bool reservations, bool acls, std::shared_ptr<store::MemoryStoreData> data = nullptr) {
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.capacity.root.queues", "a,dedicated");
    conf.set("yarn.scheduler.capacity.root.a.capacity", "20");
    conf.set("yarn.scheduler.capacity.root.dedicated.capacity", "80");
    conf.set("yarn.scheduler.capacity.root.dedicated.reservable", "true");
    conf.set("yarn.resourcemanager.reservation-system.enable", reservations ? "true" : "false");
    conf.set("yarn.acl.enable", acls ? "true" : "false");
    conf.set("yarn.acl.reservation-enable", "true");
    conf.set("yarn.scheduler.capacity.root.dedicated.acl_submit_reservations", "alice");
    conf.set("yarn.scheduler.capacity.root.dedicated.acl_administer_reservations", " admins");
    conf.set("hadoop.user.group.static.mapping.overrides", "boss=admins");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = data ? RmCore::create(*s, conf, clock, "127.0.0.1:8088",
                                   std::make_unique<store::MemoryStore>(data))
                  : RmCore::create(*s, conf, clock, "127.0.0.1:8088");
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = "n1:1";
    r.httpPort = 8042;
    r.resource = {102400, 100};
    ASSERT_EQ(core->registerNode(r).nodeAction, protocol::NodeAction::NORMAL);
  }

  ReservationSubmission submission(const std::string& id) {
    ReservationSubmission s;
    s.queue = "dedicated";
    s.id = ReservationId::parse(id).value();
    s.definition.arrival = 10000;
    s.definition.deadline = 70000;
    s.definition.stages.push_back(
        reservation::ReservationRequest::of(Resource::of(1024, 1), 10, 1, 60000));
    return s;
  }

  SimulatedClock clock{0};
  std::unique_ptr<RmCore> core;
};

TEST_F(RmReservationTest, VerbsWithoutTheSystemAreRefused) {
  make(false, false);
  auto r = core->newReservation();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.status().message(), "Reservation is not enabled. Please enable & try again");
}

TEST_F(RmReservationTest, SubmitListUpdateDelete) {
  make(true, false);
  auto id = core->newReservation();
  ASSERT_TRUE(id) << id.status().message();
  const std::string rid = (*id)["reservation-id"];
  EXPECT_EQ(rid, "reservation_1700000000000_0001");
  ASSERT_TRUE(core->submitReservation(submission(rid), "alice"));
  ReservationListRequest list;
  list.queue = "dedicated";
  list.query.includeResourceAllocations = true;
  auto listed = core->listReservations(list);
  ASSERT_TRUE(listed);
  ASSERT_EQ((*listed)["reservations"].size(), 1u);
  EXPECT_EQ((*listed)["reservations"][0]["user"], "alice");
  list.queue = "a";
  EXPECT_NE(core->listReservations(list).status().message().find("is not managed"),
            std::string::npos);
  ReservationUpdate up{ReservationId::parse(rid).value(), submission(rid).definition};
  up.definition.stages[0].numContainers = 20;
  ASSERT_TRUE(core->updateReservation(up, "alice"));
  ASSERT_TRUE(core->deleteReservation(ReservationId::parse(rid).value(), "alice"));
  EXPECT_FALSE(core->deleteReservation(ReservationId::parse(rid).value(), "alice"));
}

// RMStateStore's reservation state: accepted reservations come back after a restart as they
// were accepted, deleted ones stay gone, and new ids never repeat an old one.
TEST_F(RmReservationTest, ReservationsSurviveARestart) {
  auto data = std::make_shared<store::MemoryStoreData>();
  make(true, false, data);
  const std::string kept = (*core->newReservation())["reservation-id"];
  ASSERT_TRUE(core->submitReservation(submission(kept), "alice"));
  const std::string gone = (*core->newReservation())["reservation-id"];
  ASSERT_TRUE(core->submitReservation(submission(gone), "alice"));
  ReservationUpdate up{ReservationId::parse(kept).value(), submission(kept).definition};
  up.definition.stages[0].numContainers = 20;
  ASSERT_TRUE(core->updateReservation(up, "alice"));
  ASSERT_TRUE(core->deleteReservation(ReservationId::parse(gone).value(), "alice"));
  EXPECT_EQ(data->snapshot.of(store::RecordKind::kReservation).size(), 1u);
  ReservationListRequest list;
  list.queue = "dedicated";
  list.query.includeResourceAllocations = true;
  const nlohmann::json before = core->listReservations(list).value();
  ASSERT_EQ(before["reservations"].size(), 1u);

  // kill -9 and a restart on the same store, after the reservation's arrival.
  clock.advanceMs(15000);
  make(true, false, data);
  const nlohmann::json after = core->listReservations(list).value();
  EXPECT_EQ(after, before);  // the update's definition, skyline and acceptance time
  // Its reservation queue exists again (the plan follower ran before any app came back).
  const std::string queues = core->scheduler().dump();
  EXPECT_NE(queues.find("\"queueName\":\"" + kept + "\""), std::string::npos)
      << queues.substr(0, 3000);
  // New ids carry the restarted RM's start time: neither old id comes back.
  const std::string fresh = (*core->newReservation())["reservation-id"];
  EXPECT_EQ(fresh, "reservation_15000_0001");
  // The recovered reservation can be changed and deleted as before.
  up.definition.stages[0].numContainers = 30;
  ASSERT_TRUE(core->updateReservation(up, "alice"));
  ASSERT_TRUE(core->deleteReservation(ReservationId::parse(kept).value(), "alice"));
  EXPECT_TRUE(data->snapshot.of(store::RecordKind::kReservation).empty());
}

TEST_F(RmReservationTest, AclsNeedBothSwitches) {
  make(true, false);
  auto none = core->denyReservation("bob", RmCore::ReservationAcl::kSubmit, "dedicated", {});
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, std::nullopt);
}

TEST_F(RmReservationTest, AclsFollowCheckReservationAcls) {
  make(true, true);
  using Acl = RmCore::ReservationAcl;
  auto deny = [&](const std::string& user, Acl acl, const std::string& queue,
                  std::optional<ReservationId> id = std::nullopt) {
    auto d = core->denyReservation(user, acl, queue, id);
    EXPECT_TRUE(d) << d.status().message();
    return d ? d->value_or("") : std::string("error");
  };
  EXPECT_EQ(deny("alice", Acl::kSubmit, "dedicated"), "");
  EXPECT_EQ(deny("bob", Acl::kSubmit, "dedicated"),
            "User bob cannot perform operation SUBMIT_RESERVATIONS on queue root.dedicated");
  EXPECT_EQ(deny("boss", Acl::kSubmit, "dedicated"), "");  // administer, by group
  EXPECT_EQ(deny("bob", Acl::kList, "dedicated"), "");     // unset: everyone
  EXPECT_EQ(deny("bob", Acl::kSubmit, "a"), "");           // not a plan: the verb refuses it
  const std::string rid = (*core->newReservation())["reservation-id"];
  ASSERT_TRUE(core->submitReservation(submission(rid), "alice"));
  const ReservationId id = ReservationId::parse(rid).value();
  EXPECT_EQ(deny("alice", Acl::kAdminister, "", id), "");  // the owner
  EXPECT_EQ(deny("bob", Acl::kAdminister, "", id),
            "User bob cannot perform operation ADMINISTER_RESERVATIONS on queue root.dedicated");
  EXPECT_EQ(deny("boss", Acl::kAdminister, "", id), "");
}

}  // namespace
}  // namespace spindle::rm
