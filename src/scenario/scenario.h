// Scenarios: a cluster, a scheduler configuration and timed steps, parsed and validated from
// the JSON format of docs/scenario-format.md before anything runs.
//
//   auto sc = loadScenario("tests/scenarios/fifo-basic.json");
//   if (!sc) { std::cerr << sc.status().message(); return 2; }   // names the JSON path
//   auto result = runScenario(*sc, {.outDir = "out"});
//
// Each step is a typed struct; `expect` bodies keep their JSON (validated here, evaluated by
// the runner against the decisions and snapshots).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app_state.h"
#include "app/asks.h"
#include "base/clock.h"
#include "base/status.h"
#include "cluster/cluster.h"
#include "config/configuration.h"
#include "reservation/reservation_definition.h"
#include "resource/resource.h"

namespace spindle {

inline constexpr int kScenarioVersion = 1;

struct NodeSpec {
  std::string name;
  std::string rack;
  Resource resource;
  std::vector<std::string> labels;
  std::map<std::string, std::string> attributes;
};

struct AddNodeStep {
  std::vector<NodeSpec> nodes;  // one, or `count` of them
};
struct RemoveNodeStep {
  std::string name;
};
struct UpdateNodeStep {
  std::string name;
  Resource resource;
};
struct HeartbeatStep {
  std::string node;  // empty with `all`
  bool all = false;
  int times = 1;
  std::vector<std::pair<std::string, int32_t>> completed;  // container handle, exit status
};
struct SubmitStep {
  std::string app;
  std::string queue;
  std::string user;
  int32_t priority = 0;
  Resource am;  // zero: unmanaged AM
  std::string amLabel;
  std::string type;
  std::vector<std::string> tags;  // application tags
  // The AM's placement constraints (source tag -> PlacementSpec expression), registered after
  // the submission (RegisterApplicationMaster); parsed when the step runs.
  std::vector<std::pair<std::string, std::string>> placementConstraints;
  std::string reservation;  // a reservation handle ("" = none)
};
struct AskStep {
  std::string app;
  std::vector<ResourceRequest> requests;
};
struct ReleaseStep {
  std::string app;
  std::vector<std::string> containers;
};
struct BlacklistStep {
  std::string app;
  std::vector<std::string> add, remove;
};
struct PlaceStep {
  std::string app;
  std::string node;
  Resource resource;
  int32_t priority = 0;
  bool am = false;
  int count = 1;
  // The container becomes the node's reserved container (Scheduler::placeReservation).
  bool reserved = false;
  // The containers' node label expression (the request's); "" on a labelled node means the
  // container runs there ignoring the partition's exclusivity.
  std::string nodeLabel{};
  std::vector<std::string> tags{};  // the containers' allocation tags
};
// The AM's allocate call with one SchedulingRequest. `constraint` is PlacementSpec expression
// text, parsed when the step runs (a refused text fails the step); `app-id/<handle>/<tag>` and
// `app-tag/<tag>/<tag>` name another app's tags (see docs/scenario-format.md).
struct SchedulingRequestSpec {
  int64_t allocationRequestId = 0;
  int32_t priority = 0;
  Resource resource;
  int32_t count = 1;
  std::vector<std::string> tags;
  std::optional<std::string> constraint;
};
struct SchedulingRequestStep {
  std::string app;
  std::vector<SchedulingRequestSpec> requests;  // one allocate call: one processor batch
};
struct CompleteStep {
  std::string container;
  int32_t exitStatus = 0;
};
struct FinishAppStep {
  std::string app;
  AppState state = AppState::FINISHED;
};
struct AdvanceStep {
  int64_t ms = 0;
  // Deliver the monitor ticks that fall due while time advances (Driver::nextMonitorTick /
  // runDueMonitorTick, as the daemon and the simulator do); off by default.
  bool monitorTicks = false;
};
struct MonitorStep {};
struct SnapshotStep {
  std::string name;
};
struct ExpectStep {
  nlohmann::json body;
};
// rmadmin -refreshQueues: `properties` (the step's configuration members merged in member order)
// go on top of the configuration in force, `removed` properties (given as null) are dropped,
// and the result is handed to Scheduler::refreshConfiguration.
struct RefreshConfigStep {
  Configuration properties;
  std::vector<std::string> removed;
  // The step's XML text did not parse; running the step returns this error.
  std::optional<Status> configError;
};
// `yarn application -movetoqueue`: Scheduler::moveApp.
struct MoveAppStep {
  std::string app;
  std::string queue;
};
// The REST reservation bodies (Cluster Reservation API Submit / Update / Delete).
// `reservation` is the scenario's handle for the reservation id (a YARN id string is used as
// it is); `user` is the authenticated caller (default "user"). A definition that does not
// parse is kept as `definitionError`, reported when the step runs (so `expectError` can check
// it); an absent definition is passed on as none, for YARN's validator to refuse.
struct ReservationBody {
  std::string reservation;
  std::string user = "user";
  std::optional<reservation::ReservationDefinition> definition;
  std::optional<Status> definitionError;
};
struct SubmitReservationStep {
  std::string queue;
  ReservationBody body;
};
struct UpdateReservationStep {
  ReservationBody body;
};
struct DeleteReservationStep {
  ReservationBody body;
};
// A version-1 step whose feature this build's schedulers do not have yet; running it is an
// error that names the step and the feature.
struct FeatureStep {
  std::string feature;
};

using StepBody =
    std::variant<AddNodeStep, RemoveNodeStep, UpdateNodeStep, HeartbeatStep, SubmitStep, AskStep,
                 ReleaseStep, BlacklistStep, PlaceStep, CompleteStep, FinishAppStep, AdvanceStep,
                 MonitorStep, SnapshotStep, ExpectStep, RefreshConfigStep, MoveAppStep,
                 SubmitReservationStep, UpdateReservationStep, DeleteReservationStep, FeatureStep,
                 SchedulingRequestStep>;

struct Step {
  int index = 0;
  std::string op;
  std::optional<TimeMs> at;
  // The step must fail with an error containing this text ("" accepts any error); nothing of
  // it is applied and the run goes on.
  std::optional<std::string> expectError;
  StepBody body;
};

struct Scenario {
  std::string file;
  std::string name;
  uint64_t seed = 1;
  TimeMs startTime = 0;
  Configuration conf;
  // The configuration could not be built (bad XML, bad keys); kept so that `expectError`
  // scenarios can assert on it. Without expectError it is reported as bad input.
  std::optional<Status> configError;
  std::vector<NodeLabel> nodeLabels;  // cluster.nodeLabels, declared before nodes are added
  std::vector<NodeSpec> nodes;
  std::optional<std::string> expectError;
  std::vector<Step> steps;
};

Result<Scenario> parseScenario(const nlohmann::json& doc, std::string file);
Result<Scenario> loadScenario(const std::string& path);
// A scenario file's text (what loadScenario reads); `file` names it in errors.
Result<Scenario> parseScenarioText(std::string_view text, const std::string& file);

// RESOURCE objects: {"memory-mb": 1024, "vcores": 1, "yarn.io/gpu": 1}.
Result<Resource> parseResource(const nlohmann::json& j, std::string_view path,
                               const ResourceTypes& types);

}  // namespace spindle
