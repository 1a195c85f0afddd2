#include "topology/rack_resolver.h"

#include <gtest/gtest.h>

namespace spindle::topology {
namespace {

// A mapping answering from a script of answers, counting its calls.
class FakeMapping final : public DnsToSwitchMapping {
 public:
  explicit FakeMapping(std::map<std::string, std::optional<std::string>> answers)
      : answers_(std::move(answers)) {}
  std::optional<std::vector<std::string>> resolve(const std::vector<std::string>& hosts) override {
    std::vector<std::string> out;
    for (const std::string& h : hosts) {
      auto it = answers_.find(h);
      if (it == answers_.end() || !it->second) return std::nullopt;
      out.push_back(*it->second);
    }
    return out;
  }
  std::string describe() const override { return "fake mapping"; }

 private:
  std::map<std::string, std::optional<std::string>> answers_;
};

struct Fixture {
  std::vector<std::string> warnings;
  RackResolver resolver;
  explicit Fixture(std::map<std::string, std::optional<std::string>> answers)
      : resolver(std::make_unique<FakeMapping>(std::move(answers)),
                 [this](const std::string& w) { warnings.push_back(w); }) {}
};

TEST(RackResolverTest, ResolvesOncePerHostAndCachesIt) {
  Fixture f({{"h1", "/rack1"}, {"h2", "/rack2/"}});
  EXPECT_EQ(f.resolver.resolve("h1"), "/rack1");
  EXPECT_EQ(f.resolver.resolve("h1"), "/rack1");
  EXPECT_EQ(f.resolver.mappingCalls(), 1);
  // NodeBase.normalize drops the trailing separator.
  EXPECT_EQ(f.resolver.resolve("h2"), "/rack2");
  EXPECT_EQ(f.resolver.cached("h2"), std::optional<std::string>("/rack2"));
  EXPECT_EQ(f.resolver.mappingCalls(), 2);
  EXPECT_TRUE(f.warnings.empty());
}

TEST(RackResolverTest, FailureFallsBackToTheDefaultRackUncachedWithAWarning) {
  Fixture f({{"h1", std::nullopt}});
  EXPECT_EQ(f.resolver.resolve("h1"), "/default-rack");
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_NE(f.warnings[0].find("host h1 with the fake mapping"), std::string::npos)
      << f.warnings[0];
  EXPECT_FALSE(f.resolver.cached("h1").has_value());
  // CachedDNSToSwitchMapping keeps only answers: the next registration asks again.
  EXPECT_EQ(f.resolver.resolve("h1"), "/default-rack");
  EXPECT_EQ(f.resolver.mappingCalls(), 2);
}

TEST(RackResolverTest, RackNotStartingWithSlashIsRefused) {
  Fixture f({{"h1", "rack1"}, {"h2", "/"}});
  EXPECT_EQ(f.resolver.resolve("h1"), "/default-rack");
  EXPECT_EQ(f.resolver.resolve("h2"), "/default-rack");
  ASSERT_EQ(f.warnings.size(), 2u);
  EXPECT_NE(f.warnings[0].find("host h1 on rack 'rack1'"), std::string::npos) << f.warnings[0];
}

}  // namespace
}  // namespace spindle::topology
