#!/usr/bin/env bash
# Starts a Docker engine (containerd, then dockerd) in the background
# unless one already answers: what a fresh CI machine with Debian's
# docker.io needs before `make images` and `make test-compose`. The
# daemons' logs go to $ENGINE_LOGS (default /tmp).
set -euo pipefail
docker=/usr/bin/docker
[[ -x $docker ]] || docker=docker
if "$docker" info >/dev/null 2>&1; then
  exit 0
fi
logs=${ENGINE_LOGS:-/tmp}
if ! pgrep -x containerd >/dev/null; then
  nohup containerd >"$logs/containerd.log" 2>&1 &
fi
if ! pgrep -x dockerd >/dev/null; then
  nohup dockerd >"$logs/dockerd.log" 2>&1 &
fi
for _ in $(seq 120); do
  if "$docker" info >/dev/null 2>&1; then
    echo "engine: $("$docker" version --format 'Docker {{.Server.Version}}') is up"
    exit 0
  fi
  sleep 0.5
done
echo "engine: dockerd did not answer within a minute; its log:" >&2
tail -20 "$logs/dockerd.log" >&2
exit 1
