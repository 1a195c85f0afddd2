// `spindle serve DIR [--host H] [--port P]`: the web UI and the REST views of a finished
// simulation's output folder (webui/snapshot_service.h), until SIGINT or SIGTERM. Also what
// `spindle sim --serve` runs after its run.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace spindle::cli {

struct ServeOptions {
  bool selected = false;
  std::string dir;
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  uint16_t port = 8088;
};

void addServeCommand(CLI::App& app, ServeOptions& opts);
// Exit code: 0 stopped by a signal, 2 bad input (no snapshot.json, a port in use).
int runServeCommand(const ServeOptions& opts);

}  // namespace spindle::cli
