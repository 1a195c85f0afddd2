# Spindle: one-stop entry points. See README.md.
#   make deps   install every Debian package the project uses (root, idempotent)
#   make build  release build, executable at build/spindle
#   make test   deps + format check + GCC release build + all tests, then the fast tests again
#               built by Clang with ASan+UBSan (build-asan/)
#   make lint   clang-tidy with the checks in .clang-tidy over src/ and bench/
#   make format apply .clang-format to every source file (make format-check: only check)
#   make bench  build and run the micro benchmarks; make bench-sim: the simulator macro benchmark
#   make demo   deps + build + simulate the bundled Capacity Scheduler workload (report.html)
#   make webui  the web UI bundle (web/dist: npm ci, then esbuild), embedded by every build
#   make cluster deps + build, then a ResourceManager and two NodeManagers on loopback
#               (tools/minicluster.sh; Ctrl-C stops them)
#   make fuzz   deps + the libFuzzer targets (build-fuzz/), seeded from examples/ and tests/, each
#               run FUZZ_SECONDS (60) on one core; fails when a target found a crash (fuzz/run.sh)

PACKAGES := build-essential cmake ninja-build ccache pkg-config \
            libpugixml-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libcli11-dev libboost-dev \
            googletest libgtest-dev libgmock-dev libbenchmark-dev python3 libsqlite3-dev libjemalloc-dev \
            clang clang-format clang-tidy etcd-server etcd-client chromium libclang-rt-14-dev \
            libsimdjson-dev
# Node.js and npm build the web UI: Debian's nodejs and npm, unless a node and an npm are on the
# PATH already (a machine with another Node.js build; Debian's npm would conflict with it).
NODE_PACKAGES := $(if $(and $(shell command -v node),$(shell command -v npm)),,nodejs npm)
JOBS ?= $(shell nproc)
# ccache keys on absolute paths unless told the tree's root: clones in other folders then share
# the cache.
export CCACHE_BASEDIR := $(CURDIR)
# ...and a build with debug information (the sanitizer build's line tables) would still hash the
# folder it runs in; the line tables' compile folder of a hit then names the other clone.
export CCACHE_NOHASHDIR := 1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps webui build build-asan build-clang test test-release test-asan test-clang format \
        format-check lint bench bench-sim bench-slurm bench-slurm-deps demo cluster clean \
        build-fuzz fuzz-seeds fuzz

deps:
	@missing=$$(for p in $(PACKAGES) $(NODE_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all packages present"; fi

# The web UI (docs/web-ui.md): npm ci from web/package-lock.json, then the esbuild bundle.
WEB_SOURCES := $(wildcard web/src/* web/src/pages/*) web/build.mjs
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

web/dist/app.js: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && node build.mjs

webui: web/dist/app.js

build/build.ninja:
	cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release

build: webui build/build.ninja
	cmake --build build -j $(JOBS)

# The sanitizer build is Clang's, so that `make test` compiles everything with both compilers
# (each one's warnings, each one's reading of C++20) in two builds rather than three. Line tables
# are all the sanitizers' reports need; full debug information doubled the build's time.
build-asan/build.ninja:
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only -DSPINDLE_SANITIZE=ON -DSPINDLE_BENCH=OFF

build-asan: webui build-asan/build.ninja
	cmake --build build-asan -j $(JOBS)

# The same sources built by Clang as a release (Clang's optimised code, without the benchmarks);
# not part of `make test`, whose sanitizer build is Clang's.
build-clang/build.ninja:
	cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
	  -DSPINDLE_BENCH=OFF

build-clang: webui build-clang/build.ninja
	cmake --build build-clang -j $(JOBS)

# The fuzz targets (fuzz/): Clang with libFuzzer, ASan and UBSan; only the fuzz binaries and what
# they link are built.
build-fuzz/build.ninja:
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DSPINDLE_FUZZ=ON -DSPINDLE_BENCH=OFF

build-fuzz: build-fuzz/build.ninja
	cmake --build build-fuzz -j $(JOBS) --target fuzz_targets

# Seed corpora from the project's examples and tests (build-fuzz/corpus/<target>/).
fuzz-seeds:
	python3 fuzz/seeds.py $(CURDIR) build-fuzz/corpus

# FUZZ_SECONDS per target (60), FUZZ_TARGETS to run some only (default: all seven).
FUZZ_SECONDS ?= 60
fuzz: deps build-fuzz fuzz-seeds
	fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Every test, the slow experiment replays included (labels: cmake/spindle.cmake).
test-release: build
	cd build && ctest --output-on-failure -j $(JOBS)

# The fast tests only: the slow replays check figures, not memory, and run once above.
test-asan: build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -L fast

test-clang: build-clang
	cd build-clang && ctest --output-on-failure -j $(JOBS) -L fast

SOURCES = $(shell find src bench tests fuzz -name '*.cc' -o -name '*.h' | sort)

format:
	@clang-format -i $(SOURCES)

format-check:
	@clang-format --dry-run -Werror $(SOURCES) && echo "format-check: $(words $(SOURCES)) files follow .clang-format"

# clang-tidy reads the release build's compile commands; headers are checked through the files
# that include them (.clang-tidy's HeaderFilterRegex).
lint: build/build.ninja
	@echo "$(filter src/%.cc bench/%.cc,$(SOURCES))" | tr ' ' '\n' | \
	  xargs -P $(JOBS) -n 8 clang-tidy -p build --quiet 2>/dev/null && echo "lint: clean"

test: deps
	$(MAKE) format-check
	$(MAKE) test-release
	$(MAKE) test-asan

bench: deps build
	./build/bench/spindle_bench --benchmark_min_time=0.2

bench-sim: deps build
	./build/bench/spindle_sim_bench

# The Slurm side by side (bench/slurm_side_by_side.sh): Debian's Slurm 22.05 daemons and client,
# installed only by this target (make test does not need them).
SLURM_PACKAGES := slurmctld slurmd slurm-client
bench-slurm-deps:
	@missing=$$(for p in $(SLURM_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# BENCH_JOBS: how many jobs each system runs (2000).
bench-slurm: deps bench-slurm-deps build
	bench/slurm_side_by_side.sh build/spindle $(or $(BENCH_JOBS),2000)

demo: deps build
	./build/spindle scenario run examples/quickstart.json --out build/quickstart-out --summary
	./build/spindle sim --tracetype SLS --tracelocation examples/capacity/jobs.json \
	  --nodes examples/capacity/nodes.json --conf examples/capacity/conf \
	  --output-dir build/demo --overwrite --seed 1 --print-simulation
	examples/capacity/check.sh build/demo
	@echo "report: build/demo/report.html (open it for the charts)"

cluster: deps build
	tools/minicluster.sh build/spindle

clean:
	rm -rf build build-asan build-clang build-fuzz web/dist
