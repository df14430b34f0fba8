#!/usr/bin/env bash
# Builds every image docker-compose.yml runs, on a machine that can reach
# Debian's packages and the Go module proxy but no container registry
# (`make images`).
#
# The base images deploy/Dockerfile and docker-compose.yml name (golang,
# distroless, redis, nginx, prometheus) are pulled where a registry can be
# reached. Here each name that is not already present is given a stand-in
# built from Debian's packages and the host's Go toolchain, tagged with
# that very name, so the Dockerfile and the compose file build and run
# unchanged:
#
#   debian:bookworm   a minimal root filesystem made with debootstrap (as
#                     root), carrying the host's CA bundle
#   golang:…          debian:bookworm plus the host's GOROOT, whose version
#                     must be the tag's
#   distroless        users, a CA bundle and /tmp in an empty image
#   redis, nginx,     debian:bookworm plus Debian's redis-server, nginx
#   prometheus        and prometheus (2.x: the configuration in
#                     deploy/prometheus is written for both)
#
# Grafana has no Debian package; its service sits behind the compose
# profile "grafana" and has no stand-in.
#
# An image that is present is kept: pulled official images are used as
# they are. FORCE=1 rebuilds the stand-ins. Last, gusset:local (or
# $GUSSET_IMAGE) is built from deploy/Dockerfile (always).
#
# Environment: DOCKER, the docker client to use (default: /usr/bin/docker
# when present, else docker on PATH); MIRROR, the Debian mirror
# (default http://deb.debian.org/debian).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/deploy/images
mirror=${MIRROR:-http://deb.debian.org/debian}
ca=/etc/ssl/certs/ca-certificates.crt

# A newer client without its buildx plugin may come first on PATH; the
# classic builder needs none, and every Dockerfile here builds with it.
if [[ -z "${DOCKER:-}" ]]; then
  if [[ -x /usr/bin/docker ]]; then DOCKER=/usr/bin/docker; else DOCKER=docker; fi
fi
export DOCKER_BUILDKIT=0
if ! "$DOCKER" info >/dev/null 2>&1; then
  echo "images: no Docker engine answers $DOCKER (start containerd and dockerd)" >&2
  exit 1
fi

have() { "$DOCKER" image inspect "$1" >/dev/null 2>&1 && [[ "${FORCE:-0}" != 1 ]]; }

# The base images the two files name. A name with no stand-in below
# fails the build, so a new one cannot slip in unnoticed.
names=$( (sed -n 's/^FROM \([^ ]*\).*/\1/p' "$root/deploy/Dockerfile"
          sed -n 's/^ *image: *\([^ ]*\).*/\1/p' "$root/docker-compose.yml") | sort -u)

debian_base() {
  have debian:bookworm && return
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  echo "images: debian:bookworm from debootstrap ($mirror)"
  debootstrap --variant=minbase bookworm "$dir/rootfs" "$mirror" >"$dir/log" 2>&1 || { tail -20 "$dir/log" >&2; return 1; }
  mkdir -p "$dir/rootfs/etc/ssl/certs"
  cp "$ca" "$dir/rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$dir/rootfs/var/cache/apt/archives/"*.deb "$dir/rootfs/var/lib/apt/lists/"*
  tar -C "$dir/rootfs" -c . | "$DOCKER" import \
    -c 'CMD ["bash"]' -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -m "debootstrap --variant=minbase bookworm" - debian:bookworm >/dev/null
}

golang() {
  local name=$1 want have_version
  want=${name#golang:}
  want=${want%%-*}
  have_version=$("${GO:-go}" env GOVERSION)
  if [[ "go$want" != "$have_version" ]]; then
    echo "images: $name needs Go $want; this machine has $have_version" >&2
    return 1
  fi
  "$DOCKER" build -q -t "$name" -f "$here/golang.Dockerfile" "$("${GO:-go}" env GOROOT)" >/dev/null
}

distroless() {
  local name=$1 dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  mkdir -p "$dir/rootfs/etc/ssl/certs" "$dir/rootfs/tmp" "$dir/rootfs/home/nonroot"
  chmod 1777 "$dir/rootfs/tmp"
  cp "$ca" "$dir/rootfs/etc/ssl/certs/ca-certificates.crt"
  printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin' \
    'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >"$dir/rootfs/etc/passwd"
  printf '%s\n' 'root:x:0:' 'nobody:x:65534:' 'nonroot:x:65532:' >"$dir/rootfs/etc/group"
  printf '%s\n' 'hosts: files dns' >"$dir/rootfs/etc/nsswitch.conf"
  chown 65532:65532 "$dir/rootfs/home/nonroot"
  cp "$here/distroless.Dockerfile" "$dir/Dockerfile"
  "$DOCKER" build -q -t "$name" "$dir" >/dev/null
}

from_debian() {
  "$DOCKER" build -q -t "$1" -f "$here/$2.Dockerfile" "$here" >/dev/null
}

debian_base
for name in $names; do
  case $name in
    gusset:local|'${GUSSET_IMAGE:-gusset:local}'|debian:bookworm) continue ;;
    grafana/*) echo "images: $name has no stand-in (no Debian package): the grafana profile needs it pulled"; continue ;;
  esac
  if have "$name"; then
    echo "images: $name is present"
    continue
  fi
  echo "images: $name (stand-in)"
  case $name in
    golang:*) golang "$name" ;;
    gcr.io/distroless/static*) distroless "$name" ;;
    redis:*) from_debian "$name" redis ;;
    nginx:*) from_debian "$name" nginx ;;
    prom/prometheus:*) from_debian "$name" prometheus ;;
    *) echo "images: no stand-in for $name: add one to $0" >&2; exit 1 ;;
  esac
done

gusset=${GUSSET_IMAGE:-gusset:local}
echo "images: $gusset from deploy/Dockerfile"
"$DOCKER" build -q -t "$gusset" -f "$root/deploy/Dockerfile" "$root" >/dev/null
"$DOCKER" image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | sort
