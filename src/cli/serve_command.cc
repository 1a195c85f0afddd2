#include "cli/serve_command.h"

#include <csignal>
#include <iostream>

#include "protocol/http_server.h"
#include "webui/snapshot_service.h"

namespace spindle::cli {

void addServeCommand(CLI::App& app, ServeOptions& o) {
  auto* serve = app.add_subcommand(
      "serve", "Serve the web UI over a finished simulation's output folder (its snapshot.json)");
  serve->add_option("dir", o.dir, "The simulation's --output-dir")->required();
  serve->add_option("--host", o.host,
                    "Address to listen on (default 127.0.0.1: this machine only)");
  serve->add_option("--port", o.port, "Port (default 8088; 0 picks a free one)");
  serve->callback([&o] { o.selected = true; });
}

int runServeCommand(const ServeOptions& o) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto service = webui::SnapshotService::load(o.dir);
  if (!service) {
    std::cerr << "spindle serve: " << service.status().message() << "\n";
    return 2;
  }
  const webui::SnapshotService& s = **service;
  protocol::HttpServer server(
      o.host, o.port, [&s](protocol::HttpRequest r, protocol::Respond d) { d(s.answer(r)); });
  if (Status st = server.start(); !st.isOk()) {
    std::cerr << "spindle serve: " << st.message() << "\n";
    return 2;
  }
  std::cout << "spindle serve: " << s.appCount() << " apps, " << s.nodeCount() << " nodes from "
            << o.dir << "; open http://" << o.host << ":" << server.port() << "/" << std::endl;
  int sig = 0;
  sigwait(&signals, &sig);
  server.stop();
  std::cout << "spindle serve: stopped" << std::endl;
  return 0;
}

}  // namespace spindle::cli
