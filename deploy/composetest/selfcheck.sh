#!/usr/bin/env bash
# The compose suite's self-check (the last step of make test-compose): the
# worker-loss scenario, run against a worker image whose entry point exits
# at once, must fail, and fail in that scenario rather than in the
# harness. A suite that passed here would pass with no working worker.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
docker=${DOCKER:-/usr/bin/docker}
[[ -x $docker ]] || docker=docker
base=${GUSSET_IMAGE:-gusset:local}
DOCKER_BUILDKIT=0 "$docker" build -q --build-arg "BASE=$base" -t gusset:selfcheck-broken-worker \
  -f deploy/composetest/broken-worker.Dockerfile deploy/composetest >/dev/null || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
COMPOSE_PROJECT=gussetselfcheck COMPOSE_WORKER_IMAGE=gusset:selfcheck-broken-worker \
  ${GO:-go} test -tags compose -count=1 -v -timeout 15m -run '^TestWorkerLoss$' ./deploy/composetest/ >"$log" 2>&1
rc=$?
grep -E '^(=== RUN|--- |    [a-z_]+_test\.go:)' "$log" | head -20
if [[ $rc -eq 0 ]]; then
  echo "self-check FAILED: the worker-loss scenario passed against a worker image that exits at once" >&2
  exit 1
fi
if ! grep -q -- '--- FAIL: TestWorkerLoss' "$log"; then
  echo "self-check FAILED: the run failed (exit $rc), but not in TestWorkerLoss; its output:" >&2
  tail -40 "$log" >&2
  exit 1
fi
echo "self-check passed: with a worker image that exits at once, TestWorkerLoss fails as it must"
