#!/bin/sh
# As the official image does: a server started without a configuration
# file takes connections from the other containers (protected mode would
# refuse every client that is not on loopback).
set -e
if [ "$1" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec "$@"
