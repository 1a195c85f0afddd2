// AmLauncher against a fake NodeManager: the AMs queued for one node arrive in one
// StartContainersRequest, in order; a container the node refuses is reported alone; an
// unreachable node fails every AM sent to it.
#include "rm/am_launcher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "protocol/codec.h"
#include "protocol/http_server.h"

namespace spindle::rm {
namespace {

AmLaunch launchOf(const std::string& node, const std::string& cid) {
  AmLaunch l;
  l.nodeHttpAddress = node;
  protocol::StartContainerRequest r;
  r.containerId = cid;
  r.containerLaunchContext.commands = {"true"};
  l.request.startContainerRequest.push_back(r);
  return l;
}

TEST(AmLauncher, BatchesPerNodeAndReportsEachRefusal) {
  std::mutex mu;
  std::vector<std::vector<std::string>> requests;  // container ids of each request
  protocol::HttpServer nm(
      "127.0.0.1", 0, [&](protocol::HttpRequest req, protocol::Respond respond) {
        auto start = protocol::decode<protocol::StartContainersRequest>(req.body);
        ASSERT_TRUE(static_cast<bool>(start)) << start.status().message();
        protocol::StartContainersResponse resp;
        std::vector<std::string> ids;
        for (const auto& s : start->startContainerRequest) {
          ids.push_back(s.containerId);
          if (s.containerId == "c2") {
            resp.failedRequests.push_back({s.containerId, "refused: no room"});
          } else {
            resp.succeededRequests.push_back(s.containerId);
          }
        }
        {
          std::lock_guard lock(mu);
          requests.push_back(ids);
        }
        respond({200, protocol::toJson(resp).dump()});
      });
  ASSERT_TRUE(nm.start().isOk());
  const std::string node = "127.0.0.1:" + std::to_string(nm.port());
  std::vector<std::pair<std::string, std::string>> failures;
  AmLauncher launcher([&](std::string cid, std::string why) {
    std::lock_guard lock(mu);
    failures.emplace_back(cid, why);
  });
  // Queued before the thread runs: one round takes them all.
  launcher.launch({launchOf(node, "c1"), launchOf(node, "c2"), launchOf(node, "c3"),
                   launchOf("127.0.0.1:1", "c4")});
  launcher.start();
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lock(mu);
      if (!requests.empty() && failures.size() >= 2) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  launcher.stop();
  nm.stop();
  std::lock_guard lock(mu);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0], (std::vector<std::string>{"c1", "c2", "c3"}));
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0].first, "c2");
  EXPECT_EQ(failures[0].second, "refused: no room");
  EXPECT_EQ(failures[1].first, "c4");
  EXPECT_FALSE(failures[1].second.empty());
}

}  // namespace
}  // namespace spindle::rm
