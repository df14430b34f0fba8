# gusset: the structural analysis job service.
#   make run    build and start the standalone service (api + worker + embedded Redis)
#   make test   every test (needs redis-server on PATH; .ci/run installs it)
#   make bench  benchmarks: speed targets live here, never in tests
#               (tests assert no elapsed time; see README, "Tests")
#   make fuzz   fuzz each Fuzz function for FUZZTIME (default 30s)
#   make test-load, make test-fault   the slow suites (README, "Tests")

GO      ?= go
BIN     := bin
PKGS    := ./...

.PHONY: build run test test-memory test-fault test-load test-cluster test-capacity test-redis-cluster images test-compose bench bench-cholmod lint lint-openapi lint-openapi-deps clean verify-ccx fuzz vendor-web

build:
	$(GO) build -o $(BIN)/gusset ./services/standalone
	$(GO) build -o $(BIN)/gusset-api ./services/api
	$(GO) build -o $(BIN)/gusset-worker ./services/worker
	$(GO) build -o $(BIN)/gusset-admin ./services/admin

# run builds only the standalone it runs.
run:
	$(GO) build -o $(BIN)/gusset ./services/standalone
	./$(BIN)/gusset

# Tests assert behaviour, never elapsed time; their deadlines only catch a
# hang. go test runs two packages at a time on 2 cores; the slowest,
# pkg/server, takes about 3 minutes beside a CPU-bound process, and on a
# machine loaded well past that it took over 5; a package timeout of 8
# minutes catches a hang without failing a slow machine. go vet has checked every package, test files
# included, so go test's own vet pass is off.
test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -vet=off -timeout 8m $(PKGS)

# Kill solver workers mid-analysis (services/worker/fault_test.go, build tag
# fault): real api and worker processes on one redis-server. 12-14
# minutes: asynq gives a lost worker's task to another only after 1-2 minutes.
test-fault:
	$(GO) vet -tags fault ./services/worker/
	$(GO) test -tags fault -count=1 -v -timeout 30m ./services/worker/

# Two api replicas and three workers wired as docker-compose wires them,
# with API keys (services/api/cluster_test.go, tag cluster): six workspaces
# at once, SIGTERM to a busy worker, SIGKILL to one api. About 1 minute.
test-cluster:
	$(GO) vet -tags cluster ./services/api/
	$(GO) test -tags cluster -count=1 -v -timeout 15m -run TestCluster ./services/api/

# The store, run-lifecycle and queue suites on a three-master Redis Cluster
# of redis-server processes on loopback ports (GUSSET_TEST_REDIS=cluster,
# pkg/testutil/redistest); about a minute.
test-redis-cluster:
	GUSSET_TEST_REDIS=cluster $(GO) test -count=1 -timeout 10m ./pkg/store/... ./pkg/analysis/... ./pkg/queue/... ./pkg/testutil/redistest/

# Load test (services/api/load_test.go, tag load): 48 clients on two api replicas and a worker for 60 s; about 2 minutes.
test-load:
	$(GO) vet -tags load ./services/api/
	$(GO) test -tags load -count=1 -v -timeout 10m -run TestLoad ./services/api/

# The capacity scenarios (services/api/capacity_*_test.go, tag capacity):
# what one workspace must not be able to do to the service or to another
# workspace, against real api and worker processes, each finding alone and
# all of them beside a looping bystander (TestCapacityCombined). About 12
# minutes on 2 cores; CI runs it. CAPACITY_BIN_DIR runs them against other
# binaries (an earlier build, say).
test-capacity:
	$(GO) vet -tags capacity ./services/api/
	$(GO) test -tags capacity -count=1 -v -timeout 40m -run TestCapacity ./services/api/

# Every image docker-compose.yml runs: stand-ins for the base images made
# from Debian's packages and this machine's Go toolchain where no registry
# can be reached (images present are kept), then gusset:local from
# deploy/Dockerfile. Needs a running Docker engine (and root, for
# debootstrap, the first time). deploy/images/build.sh says more.
images:
	GO=$(GO) bash deploy/images/build.sh

# The compose deployment for real (deploy/composetest, tag compose): the
# images, then Redis with AOF, two API replicas behind nginx, two workers
# and Prometheus, and the operator scenarios against the published port;
# each prints its figures ("figure:" lines). Last, a self-check: the
# worker-loss scenario against a worker image that exits at once must
# fail. Needs Docker and docker-compose (bash .ci/run installs them).
test-compose: images
	$(GO) vet -tags compose ./deploy/composetest/
	$(GO) test -tags compose -count=1 -v -timeout 30m ./deploy/composetest/
	GO=$(GO) bash deploy/composetest/selfcheck.sh

# The memory estimate a worker admits runs by, against the measured peak
# (pkg/fem/static/memory_test.go) on grid-20, grid-30, the 200 × 200 plate
# mesh, grid-6 with 500 cases and grid-20's frequencies and buckling;
# `make test` measures all but grid-30 and the plate mesh. A few minutes
# and 3 GB.
test-memory:
	GUSSET_MEASURE=1 $(GO) test -count=1 -v -run TestMemoryEstimate ./pkg/fem/static/

# Fuzz every Fuzz function of the *_fuzz_test.go files for FUZZTIME each,
# one after another (go test fuzzes one function per run); `make test` runs
# only their seeds. An input that fails is written to the package's
# testdata/fuzz/<FuzzName>/, where `make test` runs it from then on, and the
# target fails after trying them all.
# FUZZMINIMIZETIME bounds each minimisation (go's default, 60s, lets one
# new input of the job-file fuzzers stall a 30s run).
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s

fuzz:
	@fail=""; for file in $$(find pkg services -name '*_fuzz_test.go' | sort); do \
		dir=./$$(dirname $$file); \
		for fn in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "== $$fn ($$dir, $(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$dir || fail="$$fail $$fn"; \
		done; \
	done; \
	if [ -n "$$fail" ]; then echo "fuzz: failing:$$fail"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 80m $(PKGS)

# Race the sparse solver against CHOLMOD in one process (tag cholmod, cgo;
# installs libsuitesparse-dev and libopenblas-dev through apt when missing).
# RACE_CASES=grid-20,grid-30 and RACE_RUNS=5 narrow or widen it.
bench-cholmod:
	@dpkg -s libsuitesparse-dev libopenblas-dev >/dev/null 2>&1 || { \
		echo "installing libsuitesparse-dev libopenblas-dev through apt"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsuitesparse-dev libopenblas-dev; }
	CGO_ENABLED=1 $(GO) test -tags cholmod -run '^$$' -bench Race -benchtime 1x -timeout 80m ./pkg/fem/sparse/race/

# Cross-check the frame engine against CalculiX (installs calculix-ccx via apt).
verify-ccx:
	$(GO) test -tags ccx -count=1 -v ./pkg/fem/static/ccx/

# The browser pages' third-party code is vendored, built as published, in
# pkg/webui/assets/vendor with its licences, so that building and testing
# need no npm. vendor-web fetches the pinned versions again from the npm
# registry (npm pack checks each tarball's integrity) and replaces them.
THREE_VERSION := 0.187.0
REDOC_VERSION := 2.5.0
VENDOR_WEB    := pkg/webui/assets/vendor

vendor-web:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && cd $$tmp && \
	npm pack --silent three@$(THREE_VERSION) redoc@$(REDOC_VERSION) >/dev/null && \
	mkdir three redoc && tar xzf three-$(THREE_VERSION).tgz -C three && tar xzf redoc-$(REDOC_VERSION).tgz -C redoc && \
	cd $(CURDIR) && rm -rf $(VENDOR_WEB) && mkdir -p $(VENDOR_WEB)/three/addons/controls $(VENDOR_WEB)/redoc && \
	cp $$tmp/three/package/build/three.module.js $$tmp/three/package/build/three.core.js $$tmp/three/package/LICENSE $(VENDOR_WEB)/three/ && \
	cp $$tmp/three/package/examples/jsm/controls/OrbitControls.js $(VENDOR_WEB)/three/addons/controls/ && \
	cp $$tmp/redoc/package/bundles/redoc.standalone.js $$tmp/redoc/package/bundles/redoc.standalone.js.LICENSE.txt $$tmp/redoc/package/LICENSE $(VENDOR_WEB)/redoc/ && \
	printf 'three %s\nredoc %s\n' $(THREE_VERSION) $(REDOC_VERSION) > $(VENDOR_WEB)/VERSIONS && \
	echo "vendored three $(THREE_VERSION) and redoc $(REDOC_VERSION) into $(VENDOR_WEB)"

# The OpenAPI document is linted by Redocly CLI with its recommended rules
# (pkg/httpapi TestOpenAPIPassesRedoclyLint; an error fails, warnings are
# printed). The linter is pinned by the package-lock.json beside it and
# needs Node.js 20.19 or later; make test skips the lint when it is not
# installed, unless GUSSET_REQUIRE_REDOCLY is set (CI sets it).
REDOCLY_DIR := pkg/httpapi/testdata/redocly

lint-openapi-deps:
	npm ci --prefix $(REDOCLY_DIR) --no-audit --no-fund

lint-openapi: lint-openapi-deps
	GUSSET_REQUIRE_REDOCLY=1 $(GO) test -count=1 -v -run 'TestOpenAPI' ./pkg/httpapi/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf $(BIN)
