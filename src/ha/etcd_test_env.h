// The etcd a test talks to: tests/with_etcd.sh starts one on a free loopback port and passes
// it in SPINDLE_ETCD_ENDPOINTS. Each test works under its own key prefix.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ha/etcd_client.h"

namespace spindle::ha {

inline std::vector<EtcdEndpoint> testEtcdEndpoints() {
  const char* env = std::getenv("SPINDLE_ETCD_ENDPOINTS");
  if (env == nullptr) {
    ADD_FAILURE() << "SPINDLE_ETCD_ENDPOINTS is not set: run through tests/with_etcd.sh";
    return {};
  }
  auto parsed = parseEtcdEndpoints(env);
  if (!parsed) ADD_FAILURE() << parsed.status().message();
  return parsed ? *parsed : std::vector<EtcdEndpoint>{};
}

// A prefix no other test uses: /t/<suite>.<test>/
inline std::string testPrefix() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string("/t/") + info->test_suite_name() + "." + info->name() + "/";
}

}  // namespace spindle::ha
