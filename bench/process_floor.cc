// process_floor: what the processes of one job of the Slurm side by side (slurm_side_by_side.sh)
// cost this machine with no cluster at all, the floor under any scheduler's jobs per second.
// It starts the given command --jobs times with posix_spawn (as the NodeManager starts a
// container), --parallel at a time, its output to a file as a container's is, and waits for
// each. With `spindle_bench_am --no-rm` a job is the AM process and its /bin/true child, the
// two processes of every Spindle job in the side by side, without the RM, the NMs or the
// network. Prints jobs per second and the CPU per job of everything it started (the children's
// user + system time from getrusage) and its own.
//
//   process_floor --jobs 2000 --parallel 2 -- build/bench/spindle_bench_am --no-rm
//
// Exit status: 0 when every job exited 0, 1 otherwise or when a spawn fails, 2 for bad
// arguments.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

extern char** environ;

namespace {

double cpuMs(const rusage& r) {
  auto ms = [](const timeval& t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; };
  return ms(r.ru_utime) + ms(r.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  int jobs = 2000, parallel = 2;
  std::string output = "/dev/null";
  std::vector<std::string> command;
  CLI::App app{
      "Starts a command many times, as a NodeManager starts containers, and prints the "
      "CPU each costs"};
  app.add_option("--jobs", jobs, "how many times")->check(CLI::Range(1, 1'000'000));
  app.add_option("--parallel", parallel, "at a time")->check(CLI::Range(1, 1024));
  app.add_option("--output", output, "each job's stdout and stderr (appended)");
  app.add_option("command", command, "the command and its arguments (after --)")->required();
  CLI11_PARSE(app, argc, argv);

  std::vector<char*> args;
  for (std::string& a : command) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, output.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);

  const auto t0 = std::chrono::steady_clock::now();
  int started = 0, running = 0, failed = 0;
  while (started < jobs || running > 0) {
    while (started < jobs && running < parallel) {
      pid_t pid = 0;
      if (posix_spawn(&pid, args[0], &files, nullptr, args.data(), environ) != 0) {
        std::fprintf(stderr, "process_floor: cannot start %s\n", args[0]);
        return 1;
      }
      ++started;
      ++running;
    }
    int status = 0;
    if (waitpid(-1, &status, 0) < 0) break;
    --running;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage children{}, self{};
  getrusage(RUSAGE_CHILDREN, &children);
  getrusage(RUSAGE_SELF, &self);
  std::printf("jobs: %d (%d at a time), %d failed\n", jobs, parallel, failed);
  std::printf("jobs_per_s: %.1f\n", jobs / s);
  std::printf("children_cpu_ms_per_job: %.3f\n", cpuMs(children) / jobs);
  std::printf("own_cpu_ms_per_job: %.3f\n", cpuMs(self) / jobs);
  return failed == 0 ? 0 : 1;
}
