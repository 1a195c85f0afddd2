#include "webui/assets.h"

#include <string>

namespace spindle::webui {

namespace {

protocol::HttpResponse fileResponse(const Asset& a) {
  protocol::HttpResponse r(200, std::string(a.body));
  r.contentType = std::string(a.contentType);
  // The bundle changes only with the binary; the page itself is always asked again.
  r.headers.emplace_back("Cache-Control", a.path == "/ui/index.html" ? "no-cache" : "max-age=300");
  r.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return r;
}

}  // namespace

std::optional<protocol::HttpResponse> uiResponse(const protocol::HttpRequest& req) {
  if (req.method != "GET") return std::nullopt;
  const std::string_view path = req.path;
  if (path != "/" && path != "/ui" && !path.starts_with("/ui/")) return std::nullopt;
  const Asset* index = nullptr;
  for (const Asset& a : assets()) {
    if (a.path == path) return fileResponse(a);
    if (a.path == "/ui/index.html") index = &a;
  }
  if (index == nullptr) return std::nullopt;
  return fileResponse(*index);
}

}  // namespace spindle::webui
