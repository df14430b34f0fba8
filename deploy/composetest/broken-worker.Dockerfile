# The self-check's broken worker image: gusset:local whose gusset-worker
# is gusset-admin, which prints its usage and exits at once. The
# worker-loss scenario must fail against it (selfcheck.sh).
ARG BASE=gusset:local
FROM ${BASE} AS original
FROM ${BASE}
COPY --from=original /usr/local/bin/gusset-admin /usr/local/bin/gusset-worker
