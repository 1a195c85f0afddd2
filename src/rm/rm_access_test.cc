// The RM's security on a real loopback server: simple authentication (user.name), queue ACLs
// and yarn.admin.acl on the write calls (403 AccessControlException), and the NodeManager
// registration secret.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "protocol/http_client.h"
#include "rm/rm_service.h"

namespace spindle::rm {
namespace {

using nlohmann::json;

// root: nobody; root.default: alice and bob submit, alice administers; root.b: only bob
// submits. yarn.admin.acl: boss.
Configuration aclConf() {
  Configuration conf;
  conf.set("spindle.cluster.timestamp", "1700000000000");
  conf.set("yarn.acl.enable", "true");
  conf.set("yarn.admin.acl", "boss");
  conf.set("yarn.scheduler.capacity.root.queues", "default,b");
  conf.set("yarn.scheduler.capacity.root.default.capacity", "50");
  conf.set("yarn.scheduler.capacity.root.b.capacity", "50");
  conf.set("yarn.scheduler.capacity.root.acl_submit_applications", " ");
  conf.set("yarn.scheduler.capacity.root.acl_administer_queue", " ");
  conf.set("yarn.scheduler.capacity.root.default.acl_submit_applications", "alice,bob");
  conf.set("yarn.scheduler.capacity.root.default.acl_administer_queue", "alice");
  conf.set("yarn.scheduler.capacity.root.b.acl_submit_applications", "bob");
  conf.set("yarn.scheduler.capacity.root.b.acl_administer_queue", " ");
  conf.set("spindle.nodemanager.registration.secret", "s3cret");
  return conf;
}

class RmAccessTest : public ::testing::Test {
 protected:
  void start(const Configuration& conf) {
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = RmCore::create(*s, conf, clock, "127.0.0.1:0");
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
    loop = std::make_unique<SchedulerLoop>(50, [this] { core->tick(); });
    service = std::make_unique<RmService>(*core, *loop);
    server = std::make_unique<protocol::HttpServer>(
        "127.0.0.1", 0, [this](protocol::HttpRequest r, protocol::Respond d) {
          service->handle(std::move(r), std::move(d));
        });
    ASSERT_TRUE(server->start().isOk());
    loop->start();
    client = std::make_unique<protocol::HttpClient>("127.0.0.1", server->port(), 5000);
  }
  void TearDown() override {
    if (server) server->stop();
    if (loop) loop->stop();
  }
  std::pair<int, json> call(const std::string& method, const std::string& path,
                            const std::string& body = "") {
    auto r = client->request(method, path, body);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    if (!r) return {0, json()};
    return {r->status, r->body.empty() ? json() : json::parse(r->body, nullptr, false)};
  }
  // Submits as `user` to `queue`: {status, app id}.
  std::pair<int, std::string> submit(const std::string& user, const std::string& queue,
                                     json* answer = nullptr) {
    const std::string id = call("POST", "/ws/v1/cluster/apps/new-application?user.name=" + user)
                               .second["application-id"];
    json ctx = {{"application-id", id},
                {"application-name", "t"},
                {"queue", queue},
                {"resource", {{"memory", 256}, {"vCores", 1}}},
                {"am-container-spec", {{"commands", {{"command", "sleep 1"}}}}}};
    auto [status, body] = call("POST", "/ws/v1/cluster/apps?user.name=" + user, ctx.dump());
    if (answer != nullptr) *answer = body;
    return {status, id};
  }
  int kill(const std::string& id, const std::string& user, json* answer = nullptr) {
    auto [status, body] = call("PUT", "/ws/v1/cluster/apps/" + id + "/state?user.name=" + user,
                               R"({"state":"KILLED"})");
    if (answer != nullptr) *answer = body;
    return status;
  }
  std::string state(const std::string& id) {
    return call("GET", "/ws/v1/cluster/apps/" + id + "/state").second["state"];
  }

  SimulatedClock clock{1000};
  std::unique_ptr<RmCore> core;
  std::unique_ptr<SchedulerLoop> loop;
  std::unique_ptr<RmService> service;
  std::unique_ptr<protocol::HttpServer> server;
  std::unique_ptr<protocol::HttpClient> client;
};

TEST_F(RmAccessTest, SubmitNeedsTheQueueSubmitAcl) {
  start(aclConf());
  json refused;
  auto [s1, id1] = submit("carol", "default", &refused);
  EXPECT_EQ(s1, 403);
  EXPECT_EQ(refused["RemoteException"]["exception"], "AccessControlException");
  EXPECT_EQ(refused["RemoteException"]["javaClassName"],
            "org.apache.hadoop.security.AccessControlException");
  EXPECT_EQ(refused["RemoteException"]["message"],
            "User carol does not have permission to submit " + id1 + " to queue default");
  EXPECT_EQ(call("GET", "/ws/v1/cluster/apps/" + id1).first, 404);  // nothing was submitted
  EXPECT_EQ(submit("alice", "b").first, 403);
  EXPECT_EQ(submit("bob", "b").first, 202);
  EXPECT_EQ(submit("bob", "root.default").first, 202);
  // The administer ACL also grants submission (RMAppManager checks both).
  EXPECT_EQ(submit("alice", "default").first, 202);
  // An unknown queue is the scheduler's refusal, as before: the app ends FAILED.
  auto [s2, unknown] = submit("carol", "nowhere");
  EXPECT_EQ(s2, 202);
  EXPECT_EQ(state(unknown), "FAILED");
}

TEST_F(RmAccessTest, KillNeedsOwnerAdministerAclOrAdmin) {
  start(aclConf());
  auto [s1, id] = submit("bob", "default");
  ASSERT_EQ(s1, 202);
  json refused;
  EXPECT_EQ(kill(id, "carol", &refused), 403);
  EXPECT_EQ(refused["RemoteException"]["message"],
            "User carol cannot perform operation MODIFY_APP on " + id);
  EXPECT_EQ(state(id), "ACCEPTED");
  EXPECT_EQ(kill(id, "alice"), 200);  // acl_administer_queue of root.default
  EXPECT_EQ(state(id), "KILLED");

  auto [s2, own] = submit("bob", "b");
  ASSERT_EQ(s2, 202);
  EXPECT_EQ(kill(own, "alice"), 403);  // alice administers default, not b
  EXPECT_EQ(kill(own, "bob"), 200);    // the owner

  auto [s3, other] = submit("bob", "b");
  ASSERT_EQ(s3, 202);
  EXPECT_EQ(kill(other, "boss"), 200);  // yarn.admin.acl
  // Without user.name the caller is hadoop.http.staticuser.user (dr.who).
  auto [s4, last] = submit("bob", "b");
  ASSERT_EQ(s4, 202);
  EXPECT_EQ(call("PUT", "/ws/v1/cluster/apps/" + last + "/state", R"({"state":"KILLED"})").first,
            403);
}

TEST_F(RmAccessTest, MoveNeedsModifyAndSubmitOnTheTarget) {
  start(aclConf());
  auto [s1, id] = submit("alice", "default");
  ASSERT_EQ(s1, 202);
  auto [s2, body] =
      call("PUT", "/ws/v1/cluster/apps/" + id + "/queue?user.name=alice", R"({"queue":"b"})");
  EXPECT_EQ(s2, 403);
  EXPECT_EQ(body["RemoteException"]["message"],
            "User alice does not have permission to submit " + id + " to queue b");
  EXPECT_EQ(
      call("PUT", "/ws/v1/cluster/apps/" + id + "/queue?user.name=carol", R"({"queue":"default"})")
          .first,
      403);
  EXPECT_EQ(call("GET", "/ws/v1/cluster/apps/" + id + "/queue").second["queue"], "root.default");
}

TEST_F(RmAccessTest, WithoutAclEnableEveryoneMayWrite) {
  Configuration conf = aclConf();
  conf.set("yarn.acl.enable", "false");
  start(conf);
  auto [s1, id] = submit("carol", "b");
  EXPECT_EQ(s1, 202);
  EXPECT_EQ(kill(id, "mallory"), 200);
}

TEST_F(RmAccessTest, UserNameIsValidated) {
  start(aclConf());
  auto [status, body] = call("POST", "/ws/v1/cluster/apps/new-application?user.name=");
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["RemoteException"]["message"], "user.name: empty user name");
  EXPECT_EQ(call("POST", "/ws/v1/cluster/apps/new-application?user.name=a%20b").first, 400);
}

TEST_F(RmAccessTest, NodeManagersRegisterOnlyWithTheSecret) {
  start(aclConf());
  protocol::RegisterNodeManagerRequest r;
  r.nodeId = "127.0.0.1:9001";
  r.httpPort = 9001;
  r.resource = {1024, 2};
  auto [s1, missing] = call("POST", "/rpc/v1/resource-tracker/register", toJson(r).dump());
  EXPECT_EQ(s1, 403);
  EXPECT_EQ(missing["RemoteException"]["message"],
            "NodeManager 127.0.0.1:9001 is not allowed to register: its request carries no "
            "registration secret (spindle.nodemanager.registration.secret)");
  r.registrationSecret = "guess";
  auto [s2, wrong] = call("POST", "/rpc/v1/resource-tracker/register", toJson(r).dump());
  EXPECT_EQ(s2, 403);
  EXPECT_NE(std::string(wrong["RemoteException"]["message"]).find("secret is wrong"),
            std::string::npos);
  EXPECT_EQ(call("GET", "/ws/v1/cluster/nodes").second["nodes"]["node"].size(), 0u);
  r.registrationSecret = "s3cret";
  auto [s3, ok] = call("POST", "/rpc/v1/resource-tracker/register", toJson(r).dump());
  EXPECT_EQ(s3, 200);
  EXPECT_EQ(ok["nodeAction"], "NORMAL");
}

TEST_F(RmAccessTest, WithoutASecretAnyNodeManagerRegisters) {
  Configuration conf = aclConf();
  conf.set("spindle.nodemanager.registration.secret", "");
  start(conf);
  protocol::RegisterNodeManagerRequest r;
  r.nodeId = "127.0.0.1:9001";
  r.httpPort = 9001;
  r.resource = {1024, 2};
  EXPECT_EQ(call("POST", "/rpc/v1/resource-tracker/register", toJson(r).dump()).first, 200);
}

// The Fair Scheduler's aclSubmitApps / aclAdministerApps, read by the same checks.
TEST(RmAccessFairTest, FairQueueAcls) {
  const std::string file = ::testing::TempDir() + "/rm_access_fair.xml";
  {
    std::ofstream out(file);
    out << R"(<allocations>
  <queue name="root">
    <aclSubmitApps> </aclSubmitApps>
    <aclAdministerApps> </aclAdministerApps>
    <queue name="a"><aclSubmitApps>alice</aclSubmitApps><aclAdministerApps>ann</aclAdministerApps></queue>
    <queue name="default"/>
  </queue>
</allocations>)";
  }
  Configuration conf;
  conf.set("spindle.cluster.timestamp", "1700000000000");
  conf.set("yarn.acl.enable", "true");
  conf.set("yarn.admin.acl", " ");
  conf.set("yarn.resourcemanager.scheduler.class", "fair");
  conf.set("yarn.scheduler.fair.allocation.file", file);
  auto s = RmSettings::fromConfiguration(conf);
  ASSERT_TRUE(s.isOk());
  SimulatedClock clock{1000};
  auto core = RmCore::create(*s, conf, clock, "127.0.0.1:0");
  ASSERT_TRUE(core.isOk()) << core.status().toString();
  RmCore& rm = **core;
  protocol::SubmissionContext ctx;
  ctx.applicationId = rm.newApplication()["application-id"].get<std::string>();
  ctx.queue = "a";
  ctx.resource = {256, 1};
  ctx.amContainerSpec.commands = {"sleep 1"};
  EXPECT_EQ(rm.denySubmit("bob", ctx).value_or(""),
            "User bob does not have permission to submit " + ctx.applicationId + " to queue a");
  EXPECT_FALSE(rm.denySubmit("alice", ctx).has_value());
  EXPECT_FALSE(rm.denySubmit("ann", ctx).has_value());  // aclAdministerApps grants submission
  ctx.queue = "root.default";
  EXPECT_TRUE(rm.denySubmit("alice", ctx).has_value());
  ctx.queue = "a";
  ASSERT_TRUE(rm.submit(ctx, "alice").isOk());
  EXPECT_FALSE(rm.denyModify(ctx.applicationId, "alice").has_value());  // the owner
  EXPECT_FALSE(rm.denyModify(ctx.applicationId, "ann").has_value());    // aclAdministerApps
  EXPECT_EQ(rm.denyModify(ctx.applicationId, "bob").value_or(""),
            "User bob cannot perform operation MODIFY_APP on " + ctx.applicationId);
  EXPECT_FALSE(rm.isAdmin("bob"));
}

TEST(RmSettingsTest, SecurityKeys) {
  Configuration conf;
  auto d = RmSettings::fromConfiguration(conf);
  ASSERT_TRUE(d.isOk());
  EXPECT_FALSE(d->aclEnabled);
  EXPECT_TRUE(d->adminAcl.everyone);
  EXPECT_EQ(d->staticUser, "dr.who");
  EXPECT_EQ(d->nmRegistrationSecret, "");
  conf.set("yarn.admin.acl", "a*");
  auto bad = RmSettings::fromConfiguration(conf);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("yarn.admin.acl"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace spindle::rm
