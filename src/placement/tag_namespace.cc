#include "placement/tag_namespace.h"

#include <algorithm>
#include <charconv>

#include "base/strings.h"

namespace spindle::placement {

namespace {

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string_view namespaceTypeName(NamespaceType type) {
  switch (type) {
    case NamespaceType::kSelf: return "SELF";
    case NamespaceType::kNotSelf: return "NOT_SELF";
    case NamespaceType::kAll: return "ALL";
    case NamespaceType::kAppId: return "APP_ID";
    case NamespaceType::kAppTag: return "APP_TAG";
  }
  return "SELF";
}

Result<AppId> parseApplicationId(std::string_view text) {
  const std::vector<std::string_view> parts = splitNonEmpty(text, '_');
  if (parts.size() != 3 || parts[0] != "application" || !allDigits(parts[1]) ||
      !allDigits(parts[2])) {
    return invalidArgument("Invalid application ID: {}", text);
  }
  uint32_t seq = 0;
  const auto [end, ec] = std::from_chars(parts[2].data(), parts[2].data() + parts[2].size(), seq);
  if (ec != std::errc() || end != parts[2].data() + parts[2].size() || seq == AppId::kInvalid) {
    return invalidArgument("Invalid application ID: {}", text);
  }
  return AppId{seq};
}

Result<AllocationTagNamespace> AllocationTagNamespace::parse(std::string_view key) {
  AllocationTagNamespace ns;
  if (key.empty()) return ns;
  const std::vector<std::string_view> pieces = splitNonEmpty(key, '/');
  if (pieces.empty() || pieces.size() > 2) {
    return invalidArgument(
        "Invalid namespace string: {}, the syntax is <namespace_prefix> or "
        "<namespace_prefix>/<namespace_value>",
        key);
  }
  const std::string_view prefix = pieces[0];
  if (prefix == "self") {
    ns.type_ = NamespaceType::kSelf;
  } else if (prefix == "not-self") {
    ns.type_ = NamespaceType::kNotSelf;
  } else if (prefix == "all") {
    ns.type_ = NamespaceType::kAll;
  } else if (prefix == "app-id") {
    if (pieces.size() != 2) {
      return invalidArgument("Missing the application ID in the namespace string: {}", key);
    }
    Result<AppId> id = parseApplicationId(pieces[1]);
    if (!id) return invalidArgument("Invalid application ID for app-id: {}", pieces[1]);
    ns.type_ = NamespaceType::kAppId;
    ns.appId_ = *id;
  } else if (prefix == "app-tag") {
    if (pieces.size() != 2) {
      return invalidArgument("Missing the application tag in the namespace string: {}", key);
    }
    ns.type_ = NamespaceType::kAppTag;
    ns.appTag_ = std::string(pieces[1]);
  } else {
    return invalidArgument(
        "Invalid namespace prefix: {}, valid values are: self, not-self, app-id, app-tag, all",
        prefix);
  }
  return ns;
}

Status AllocationTagNamespace::evaluate(const TargetApplications& apps) {
  std::vector<AppId> scope;
  switch (type_) {
    case NamespaceType::kSelf:
      if (!apps.current) {
        return failedPrecondition(
            "Namespace Self must be evaluated against a single application ID.");
      }
      scope.push_back(*apps.current);
      break;
    case NamespaceType::kNotSelf:
      for (const KnownApplication& a : apps.apps) {
        if (!apps.current || a.app != *apps.current) scope.push_back(a.app);
      }
      break;
    case NamespaceType::kAll:
      for (const KnownApplication& a : apps.apps) scope.push_back(a.app);
      break;
    case NamespaceType::kAppId: scope.push_back(appId_); break;
    case NamespaceType::kAppTag:
      for (const KnownApplication& a : apps.apps) {
        const auto& tags = a.applicationTags;
        if (std::find(tags.begin(), tags.end(), appTag_) != tags.end()) scope.push_back(a.app);
      }
      break;
  }
  std::sort(scope.begin(), scope.end());
  scope.erase(std::unique(scope.begin(), scope.end()), scope.end());
  scope_ = std::move(scope);
  return Status::ok();
}

Result<std::vector<AppId>> AllocationTagNamespace::scope() const {
  if (!scope_)
    return failedPrecondition("Evaluate must be called before a namespace can be consumed.");
  return *scope_;
}

}  // namespace spindle::placement
