// The web UI's files, built from web/ by esbuild and embedded in the binary at build time
// (cmake/embed_webui.cmake), and the answer to a browser's request for one.
//
//   if (auto page = webui::uiResponse(req)) return respond(std::move(*page));
//
// Paths: "/" and "/ui" and any "/ui/..." that is not a file answer index.html (the pages route
// on the URL's #fragment); "/ui/app.js" and "/ui/app.css" the bundle. Only GET.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "protocol/http_server.h"

namespace spindle::webui {

struct Asset {
  std::string_view path;  // "/ui/app.js"
  std::string_view contentType;
  std::string_view body;
};

// Every embedded file (generated source).
const std::vector<Asset>& assets();

// The answer for a UI path; nullopt for any other path or method.
std::optional<protocol::HttpResponse> uiResponse(const protocol::HttpRequest& req);

}  // namespace spindle::webui
