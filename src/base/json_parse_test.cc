#include "base/json_parse.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

using nlohmann::json;

TEST(JsonParse, ParsesADocument) {
  json j;
  ASSERT_FALSE(parseJson(R"({"a": [1, 2.5, "x"], "b": {"c": null}})", j));
  EXPECT_EQ(j["a"][1], 2.5);
  EXPECT_TRUE(j["b"]["c"].is_null());
}

TEST(JsonParse, SyntaxErrorPointsAtTheLastCharacterRead) {
  json j;
  std::optional<JsonParseError> e = parseJson(R"({"a": tru})", j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 9u);  // the "}" after "tru"
  EXPECT_EQ(e->message.rfind("syntax error", 0), 0u) << e->message;
  EXPECT_TRUE(parseJson("{} x", j)) << "text after the document";
}

TEST(JsonParse, NumberOutOfRangeNamesTheNumberAndItsField) {
  json j;
  std::optional<JsonParseError> e = parseJson(R"({"a": 1, "big": -1e999})", j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 16u);  // the '-' of -1e999
  EXPECT_EQ(e->message, "number overflow parsing '-1e999' (field 'big')");
}

TEST(JsonParse, DepthIsBoundedBeforeAnythingIsBuilt) {
  json j;
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_FALSE(parseJson(ok, j));
  const std::string deep =
      "{\"s\": \"[[[[\", \"a\": " + std::string(65, '[') + std::string(65, ']') + "}";
  std::optional<JsonParseError> e = parseJson(deep, j);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 19u + 63u);  // brackets inside strings do not count
  EXPECT_EQ(e->message, "arrays and objects nested deeper than 64 levels");
  EXPECT_EQ(findTooDeep(std::string(1'000'000, '{')), std::optional<size_t>(64));
}

TEST(JsonParse, BriefJsonMatchesDumpAndStopsEarly) {
  EXPECT_EQ(briefJson(json::parse(R"({"a":[1,"x"],"b":true})")), R"({"a":[1,"x"],"b":true})");
  const json long_ = json::parse(R"(["aaaaaaaaaa","bbbbbbbbbb","cccccccccc","dddddddddd"])");
  EXPECT_EQ(briefJson(long_), long_.dump().substr(0, 37) + "...");
  // A million levels, built without recursion: rendered without walking them (dump() would
  // recurse a million times).
  json deep = json::array();
  json* cur = &deep;
  for (int i = 0; i < 1'000'000; ++i) {
    cur->push_back(json::array());
    cur = &(*cur)[0];
  }
  EXPECT_EQ(briefJson(deep), std::string(37, '[') + "...");
}

}  // namespace
}  // namespace spindle
