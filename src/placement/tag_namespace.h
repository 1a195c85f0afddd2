// Allocation tag namespaces: which applications' tags a target tag refers to. Mirrors YARN's
// TargetApplicationsNamespace (parse and evaluate) and TargetApplications.
//
//   Result<AllocationTagNamespace> ns = AllocationTagNamespace::parse("app-tag/hbase");
//   // ns->type() == NamespaceType::kAppTag, ns->appTag() == "hbase"
//   TargetApplications apps{AppId{1}, {{AppId{1}, {"hbase"}}, {AppId{2}, {}}}};
//   ns->evaluate(apps);
//   ns->scope();  // {AppId{1}}: app-tag includes the requesting app when it has the tag
//
// | key             | scope                                                          |
// |-----------------|----------------------------------------------------------------|
// | "" or "self"    | the requesting application                                     |
// | "not-self"      | every known application except the requesting one              |
// | "all"           | every application (the evaluator reads the global counts)      |
// | "app-id/<id>"   | that application (application_<clusterTimestamp>_<sequence>)  |
// | "app-tag/<tag>" | known applications whose application tags contain <tag>        |
// "Known" applications are those that currently hold at least one allocation tag. `self/x`
// parses as self (the second piece is ignored), as in YARN.
//
// Spindle's AppId is the application's sequence number (base/ids.h), so `app-id/` keeps the
// sequence of the id it is given and does not compare the cluster timestamp.
//
// The evaluator (evaluator.h) does not go through evaluate()/scope(): it resolves a namespace to
// an AllocationTagsManager query (AppSet) without building application lists.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/status.h"

namespace spindle::placement {

enum class NamespaceType { kSelf, kNotSelf, kAll, kAppId, kAppTag };
// "SELF", "NOT_SELF", "ALL", "APP_ID", "APP_TAG" (AllocationTagNamespaceType).
std::string_view namespaceTypeName(NamespaceType type);

struct KnownApplication {
  AppId app;
  std::vector<std::string> applicationTags;
};

// TargetApplications: the requesting application and the applications the namespace can name.
struct TargetApplications {
  std::optional<AppId> current;
  std::vector<KnownApplication> apps;
};

// "application_1517338472000_0004" -> AppId{4}; InvalidArgument otherwise.
Result<AppId> parseApplicationId(std::string_view text);

class AllocationTagNamespace {
 public:
  // InvalidArgument with YARN's messages ("Invalid namespace prefix: ...", "Invalid namespace
  // string: ...", "Missing the application ID in the namespace string: ...").
  static Result<AllocationTagNamespace> parse(std::string_view key);

  NamespaceType type() const { return type_; }
  AppId appId() const { return appId_; }                 // kAppId only
  const std::string& appTag() const { return appTag_; }  // kAppTag only

  // Resolves the scope against `apps`; FailedPrecondition for self without a current app.
  Status evaluate(const TargetApplications& apps);
  // The applications resolved by evaluate(); FailedPrecondition before it ("Evaluate must be
  // called before a namespace can be consumed.").
  Result<std::vector<AppId>> scope() const;

 private:
  NamespaceType type_ = NamespaceType::kSelf;
  AppId appId_;
  std::string appTag_;
  std::optional<std::vector<AppId>> scope_;
};

}  // namespace spindle::placement
