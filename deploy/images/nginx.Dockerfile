# Stand-in for the official nginx image, from Debian's nginx: the user
# nginx the official image runs its workers as, and wget for the compose
# file's healthcheck. The configuration is mounted by the compose file.
FROM debian:bookworm
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx wget \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --no-create-home --shell /usr/sbin/nologin nginx
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
LABEL org.gusset.stand-in="nginx from Debian's nginx"
