# gusset: the structural analysis job service.
#   make run    build and start the standalone service (api + worker + embedded Redis)
#   make test   every test (needs redis-server on PATH; .ci/run installs it)
#   make bench  benchmarks: speed targets live here, never in tests

GO      ?= go
BIN     := bin
PKGS    := ./...

.PHONY: build run test test-fault bench lint clean verify-ccx

build:
	$(GO) build -o $(BIN)/gusset ./services/standalone
	$(GO) build -o $(BIN)/gusset-api ./services/api
	$(GO) build -o $(BIN)/gusset-worker ./services/worker

run: build
	./$(BIN)/gusset

test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout 9m $(PKGS)

# Kill solver workers mid-analysis (services/worker/fault_test.go, build tag
# fault): real api and worker processes on one redis-server. 12-14
# minutes: asynq gives a lost worker's task to another only after 1-2 minutes.
test-fault:
	$(GO) vet -tags fault ./services/worker/
	$(GO) test -tags fault -count=1 -v -timeout 30m ./services/worker/

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 80m $(PKGS)

# Cross-check the frame engine against CalculiX (installs calculix-ccx via apt).
verify-ccx:
	$(GO) test -tags ccx -count=1 -v ./pkg/fem/static/ccx/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf $(BIN)
