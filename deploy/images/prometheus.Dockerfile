# Stand-in for prom/prometheus, from Debian's prometheus (with promtool):
# the same entry point and default flags, run as nobody with its data in
# /prometheus, and wget for the compose file's healthcheck.
FROM debian:bookworm
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus wget \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /prometheus && chown nobody:nogroup /prometheus
WORKDIR /prometheus
USER nobody
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
LABEL org.gusset.stand-in="prometheus from Debian's prometheus"
