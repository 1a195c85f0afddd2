# Spindle: one-stop entry points. See README.md.
#   make deps   install every Debian package the project uses (root, idempotent)
#   make build  release build, executable at build/spindle
#   make test   deps + build + all tests, then the same tests under ASan+UBSan in build-asan/
#   make bench  build and run the micro benchmarks; make bench-sim: the simulator macro benchmark
#   make demo   deps + build + simulate the bundled Capacity Scheduler workload (report.html)

PACKAGES := build-essential cmake ninja-build ccache pkg-config \
            libpugixml-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libcli11-dev \
            googletest libgtest-dev libgmock-dev libbenchmark-dev python3
JOBS ?= $(shell nproc)
# ccache keys on absolute paths unless told the tree's root: clones in other folders then share
# the cache.
export CCACHE_BASEDIR := $(CURDIR)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build build-asan test test-release test-asan bench bench-sim demo clean

deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all packages present"; fi

build/build.ninja:
	cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release

build: build/build.ninja
	cmake --build build -j $(JOBS)

build-asan/build.ninja:
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSPINDLE_SANITIZE=ON -DSPINDLE_BENCH=OFF

build-asan: build-asan/build.ninja
	cmake --build build-asan -j $(JOBS)

test-release: build
	cd build && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

test: deps
	$(MAKE) test-release
	$(MAKE) test-asan

bench: deps build
	./build/bench/spindle_bench --benchmark_min_time=0.2

bench-sim: deps build
	./build/bench/spindle_sim_bench

demo: deps build
	./build/spindle sim --tracetype SLS --tracelocation examples/capacity/jobs.json \
	  --nodes examples/capacity/nodes.json --conf examples/capacity/conf \
	  --output-dir build/demo --seed 1 --print-simulation
	examples/capacity/check.sh build/demo
	@echo "open build/demo/report.html for the charts"
	./build/spindle scenario run examples/quickstart.json --out build/quickstart-out --summary

clean:
	rm -rf build build-asan
