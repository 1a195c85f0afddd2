// Runs every seed once through its fuzz target's entry function, without libFuzzer: the ctest
// fuzz_replay (label fast, so the harnesses build and the seeds pass under ASan and Clang too).
//
//   fuzz_replay CORPUS     # CORPUS/<target>/* as fuzz/seeds.py lays it out
//   fuzz_replay TARGET FILE...
//
// Exits 1 when a target has no seed (the corpus layout and the target list disagree); a finding
// aborts the process as it would under libFuzzer.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/harness.h"

namespace {

namespace fs = std::filesystem;
using spindle::fuzz::Target;

void runFile(const Target& t, const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  t.one(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

const Target* findTarget(std::string_view name) {
  for (const Target& t : spindle::fuzz::targets()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  spindle::fuzz::quietLogging();
  if (argc >= 3) {
    const Target* t = findTarget(argv[1]);
    if (t == nullptr) {
      std::cerr << "fuzz_replay: unknown target '" << argv[1] << "'\n";
      return 2;
    }
    for (int i = 2; i < argc; ++i) runFile(*t, argv[i]);
    std::cout << t->name << ": " << argc - 2 << " input(s) replayed\n";
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: fuzz_replay CORPUS | fuzz_replay TARGET FILE...\n";
    return 2;
  }
  int rc = 0;
  for (const Target& t : spindle::fuzz::targets()) {
    const fs::path dir = fs::path(argv[1]) / std::string(t.name);
    std::vector<fs::path> files;
    if (fs::is_directory(dir)) {
      for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) runFile(t, f);
    std::cout << t.name << ": " << files.size() << " seed(s) replayed\n";
    if (files.empty()) {
      std::cerr << "fuzz_replay: no seeds for target '" << t.name << "' in " << dir << '\n';
      rc = 1;
    }
  }
  return rc;
}
