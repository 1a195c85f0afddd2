#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "dao/decision_store.h"
#include "webui/assets.h"
#include "webui/list_page.h"
#include "webui/snapshot_service.h"

namespace spindle::webui {
namespace {

using nlohmann::json;
using protocol::HttpRequest;

HttpRequest get(std::string path, std::map<std::string, std::string> q = {}) {
  HttpRequest r;
  r.method = "GET";
  r.path = std::move(path);
  r.query = std::move(q);
  return r;
}

TEST(WebUiAssets, RootAndUnknownUiPathsAnswerThePage) {
  auto root = uiResponse(get("/"));
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->status, 200);
  EXPECT_EQ(root->contentType.rfind("text/html", 0), 0u);
  EXPECT_NE(root->body.find("<title>"), std::string::npos);
  auto deep = uiResponse(get("/ui/apps/application_1_0001"));
  ASSERT_TRUE(deep.has_value());
  EXPECT_EQ(deep->body, root->body);
  auto js = uiResponse(get("/ui/app.js"));
  ASSERT_TRUE(js.has_value());
  EXPECT_EQ(js->contentType.rfind("text/javascript", 0), 0u);
  EXPECT_FALSE(uiResponse(get("/ws/v1/cluster")).has_value());
  EXPECT_FALSE(uiResponse(get("/uix")).has_value());
  HttpRequest post = get("/");
  post.method = "POST";
  EXPECT_FALSE(uiResponse(post).has_value());
}

json decision(int seq, std::string kind, std::string app, std::string queue, std::string reason) {
  return {{"seq", seq},     {"time", seq * 1000}, {"kind", kind},    {"app", app},
          {"queue", queue}, {"node", "h1:1"},     {"reason", reason}};
}

TEST(DecisionStore, FiltersNewestFirstAndKeepsWhyPending) {
  DecisionStore store(3);
  store.add(decision(0, "app-accepted", "app_1", "root.a", "accepted"));
  store.add(decision(1, "skip", "app_1", "root.a", "queue over its AM limit"));
  store.add(decision(2, "allocate", "app_2", "root.b", "NODE_LOCAL ask"));
  store.add(decision(3, "skip", "app_2", "root.b", "user limit reached"));
  EXPECT_EQ(store.size(), 3u);  // the oldest dropped
  auto all = store.query({});
  ASSERT_TRUE(all.isOk());
  const json& list = (*all)["decisions"]["decision"];
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0]["seq"], 3);
  auto byReason = store.query({{"reason", "AM LIMIT"}});
  ASSERT_TRUE(byReason.isOk());
  EXPECT_EQ((*byReason)["decisions"]["total"], 1);
  auto byQueue = store.query({{"queue", "root.b"}, {"limit", "1"}});
  ASSERT_TRUE(byQueue.isOk());
  EXPECT_EQ((*byQueue)["decisions"]["total"], 2);
  EXPECT_EQ((*byQueue)["decisions"]["decision"].size(), 1u);
  EXPECT_FALSE(store.query({{"limit", "x"}}).isOk());
  EXPECT_FALSE(store.query({{"limit", "0"}}).isOk());
  json why = store.appDecisions("app_2")["appDecisions"];
  EXPECT_EQ(why["whyPending"]["reason"], "user limit reached");
  EXPECT_EQ(why["decision"].size(), 2u);
  EXPECT_TRUE(store.appDecisions("app_3")["appDecisions"]["whyPending"].is_null());
}

TEST(ListPage, SortsSearchesAndPages) {
  json entries = json::array();
  for (int i = 0; i < 120; ++i) {
    entries.push_back({{"id", "app_" + std::to_string(i)}, {"mem", (i * 37) % 100}});
  }
  entries.push_back({{"id", "no-mem"}});
  auto page = listPage(entries, {{"sort", "mem"}, {"desc", "true"}, {"limit", "10"}});
  ASSERT_TRUE(page.isOk());
  EXPECT_EQ((*page)["total"], 121);
  ASSERT_EQ((*page)["items"].size(), 10u);
  EXPECT_EQ((*page)["items"][0]["mem"], 99);
  EXPECT_GE((*page)["items"][0]["mem"], (*page)["items"][9]["mem"]);
  auto last = listPage(entries, {{"sort", "mem"}, {"offset", "120"}});
  ASSERT_TRUE(last.isOk());
  EXPECT_EQ((*last)["items"].size(), 1u);
  EXPECT_EQ((*last)["items"][0]["mem"], 99);  // ascending: the missing field first, 99 last
  auto found = listPage(entries, {{"q", "APP_11"}});
  ASSERT_TRUE(found.isOk());
  EXPECT_EQ((*found)["total"], 11);  // app_11, app_110 .. app_119
  EXPECT_FALSE(listPage(entries, {{"offset", "-1"}}).isOk());
  EXPECT_FALSE(listPage(entries, {{"limit", "0"}}).isOk());
  EXPECT_FALSE(listPage(entries, {{"desc", "maybe"}}).isOk());
  EXPECT_EQ(withoutPageParams({{"sort", "x"}, {"states", "RUNNING"}, {"limit", "5"}}).size(), 1u);
}

TEST(ListPage, SortsLightRowsAndBuildsOnlyThePageInFull) {
  json rows = json::array();
  for (int i = 0; i < 30; ++i) rows.push_back({{"id", i}, {"mem", 100 - i}});
  std::vector<size_t> built;
  auto page = listPage(rows, {{"sort", "mem"}, {"limit", "3"}}, {"id", "mem"}, [&](size_t i) {
    built.push_back(i);
    return json{{"id", i}, {"full", true}};
  });
  ASSERT_TRUE(page.isOk());
  EXPECT_EQ((*page)["total"], 30);
  EXPECT_EQ(built, (std::vector<size_t>{29, 28, 27}));  // the three smallest mem, in order
  EXPECT_EQ((*page)["items"][0]["full"], true);
  auto bad =
      listPage(rows, {{"sort", "diagnostics"}}, {"id", "mem"}, [](size_t) { return json(); });
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(),
            "sort: 'diagnostics' is not one of the list's fields (id, mem)");
  json full = {{"id", "a"}, {"state", "RUNNING"}, {"resourceRequests", json::array()}};
  EXPECT_EQ(rowOf(full, kAppRowFields), (json{{"id", "a"}, {"state", "RUNNING"}}));
}

TEST(NodeSummary, CountsStatesPartitionsAndAttributes) {
  json attr = {{"nodeAttributeInfo", {{{"prefix", "rm.yarn.io"}, {"name", "os"}, {"value", "x"}}}}};
  json nodes = {{{"state", "RUNNING"}, {"nodeLabels", {"gpu"}}, {"nodeAttributesInfo", attr}},
                {{"state", "RUNNING"}, {"nodeLabels", json::array()}, {"nodeAttributesInfo", attr}},
                {{"state", "LOST"}}};
  json s = nodeSummary(nodes);
  EXPECT_EQ(s["total"], 3);
  EXPECT_EQ(s["byState"], (json{{"LOST", 1}, {"RUNNING", 2}}));
  EXPECT_EQ(s["byPartition"], (json{{"DEFAULT", 2}, {"gpu", 1}}));
  EXPECT_EQ(s["byAttribute"], (json{{"rm.yarn.io/os=x", 2}}));
}

class SnapshotServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spindle_webui_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    json snap = {{"clusterInfo", {{"id", 7}}},
                 {"clusterMetrics", {{"appsSubmitted", 2}}},
                 {"scheduler", {{"schedulerInfo", {{"type", "capacityScheduler"}}}}},
                 {"apps",
                  {{"app",
                    {{{"id", "application_7_0001"},
                      {"user", "alice"},
                      {"queue", "root.a"},
                      {"state", "RUNNING"},
                      {"launchTime", 5}},
                     {{"id", "application_7_0002"},
                      {"user", "bob"},
                      {"queue", "root.b"},
                      {"state", "ACCEPTED"}}}}}},
                 {"nodes", {{"node", {{{"id", "h1:1"}, {"state", "RUNNING"}}}}}}};
    std::ofstream(dir_ / "snapshot.json") << snap.dump();
    std::ofstream(dir_ / "decisions.jsonl")
        << decision(0, "skip", "application_7_0002", "root.b", "AM limit").dump() << "\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SnapshotServiceTest, AnswersTheRestViewsOfTheOutputs) {
  auto s = SnapshotService::load(dir_.string());
  ASSERT_TRUE(s.isOk()) << s.status().message();
  EXPECT_EQ((*s)->appCount(), 2u);
  auto body = [&](const HttpRequest& r) { return json::parse((*s)->answer(r).body); };
  EXPECT_EQ(body(get("/ws/v1/cluster/metrics"))["clusterMetrics"]["appsSubmitted"], 2);
  EXPECT_EQ(body(get("/ws/v1/cluster/apps", {{"states", "accepted"}}))["apps"]["app"].size(), 1u);
  EXPECT_EQ(body(get("/ws/v1/cluster/apps", {{"queue", "a"}}))["apps"]["app"][0]["user"], "alice");
  EXPECT_EQ((*s)->answer(get("/ws/v1/cluster/apps", {{"states", "BOGUS"}})).status, 400);
  EXPECT_EQ(
      body(get("/ws/v1/cluster/apps/application_7_0001/appattempts"))["appAttempts"]["appAttempt"]
                                                                     [0]["appAttemptId"],
      "appattempt_7_0001_000001");
  EXPECT_EQ(
      body(get("/ws/v1/cluster/spindle/app-decisions/application_7_0002"))["appDecisions"]
                                                                          ["whyPending"]["reason"],
      "AM limit");
  EXPECT_EQ((*s)->answer(get("/ws/v1/cluster/apps/application_7_0009")).status, 404);
  EXPECT_EQ((*s)->answer(get("/ws/v1/cluster/nodes/h9:1")).status, 404);
  EXPECT_EQ(body(get("/ws/v1/cluster/nodes/h1:1"))["node"]["state"], "RUNNING");
  HttpRequest put = get("/ws/v1/cluster/apps/application_7_0001/state");
  put.method = "PUT";
  EXPECT_EQ((*s)->answer(put).status, 405);
  EXPECT_EQ((*s)->answer(get("/")).status, 200);
  json page = body(get("/ws/v1/cluster/spindle/apps", {{"sort", "user"}, {"desc", "true"}}));
  EXPECT_EQ(page["appsPage"]["total"], 2);
  EXPECT_EQ(page["appsPage"]["items"][0]["user"], "bob");
  EXPECT_EQ((*s)->answer(get("/ws/v1/cluster/spindle/nodes", {{"limit", "x"}})).status, 400);
  EXPECT_EQ((*s)->answer(get("/ws/v1/cluster/spindle/apps", {{"sort", "nope"}})).status, 400);
  EXPECT_EQ(body(get("/ws/v1/cluster/spindle/node-summary"))["nodeSummary"]["byPartition"],
            (json{{"DEFAULT", 1}}));
}

TEST_F(SnapshotServiceTest, RefusesAFolderWithoutASnapshot) {
  std::filesystem::remove(dir_ / "snapshot.json");
  auto s = SnapshotService::load(dir_.string());
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("snapshot.json"), std::string::npos);
}

TEST_F(SnapshotServiceTest, NamesTheBadDecisionLine) {
  std::ofstream(dir_ / "decisions.jsonl", std::ios::app) << "{broken\n";
  auto s = SnapshotService::load(dir_.string());
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("line 2"), std::string::npos);
}

}  // namespace
}  // namespace spindle::webui
