// The trace fuzz targets: SLS, Rumen and SYNTH through readTrace (the function `spindle sim`
// calls, so the file reading, sorting, duplicate-id and node derivation steps run too) and the
// nodes file through parseNodesFile.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/harness.h"
#include "trace/nodes_reader.h"
#include "trace/readers.h"

namespace spindle::fuzz {
namespace {

// readTrace takes paths: each input goes to one file per process, rewritten per input and
// removed at exit.
class InputFile {
 public:
  InputFile()
      : path_(std::filesystem::temp_directory_path() /
              ("spindle-fuzz-" + std::to_string(getpid()) + "-input.json")) {}
  ~InputFile() { std::remove(path_.c_str()); }
  const std::string& write(const uint8_t* data, size_t size) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::string path_;
};

// The configurable size limits (sls-runner.xml's spindle.sls.max-*) lowered to what one fuzz
// input may cost; the readers' checks against them are what is being fuzzed.
TraceReadOptions boundedOptions() {
  TraceReadOptions o;
  o.sls.maxContainersPerJob = 2'000;
  o.sls.maxContainers = 10'000;
  o.sls.maxNodes = 2'000;
  // A trace naming another queue is refused ("unknown queue"), as under a Capacity config.
  o.knownQueues = {"default", "root.default", "a", "root.a", "b", "root.b"};
  return o;
}

int readOne(TraceType type, const uint8_t* data, size_t size) {
  static InputFile file;
  const std::string& path = file.write(data, size);
  TraceReadOptions o = boundedOptions();
  // Both policies: a bad job fails the read, or is dropped and the rest read on.
  if (!readTrace(type, {path}, o).isOk()) {
    o.skipBadJobs = true;
    (void)readTrace(type, {path}, o);
  }
  return 0;
}

}  // namespace

int slsTrace(const uint8_t* data, size_t size) { return readOne(TraceType::kSls, data, size); }

int rumenTrace(const uint8_t* data, size_t size) { return readOne(TraceType::kRumen, data, size); }

int synthSpec(const uint8_t* data, size_t size) { return readOne(TraceType::kSynth, data, size); }

int nodesFile(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const SlsSettings sls;
  (void)parseNodesFile(text, "nodes.json", ResourceTypes(), sls.nodeResource);
  return 0;
}

}  // namespace spindle::fuzz
