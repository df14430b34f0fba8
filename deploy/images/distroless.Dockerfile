# Stand-in for gcr.io/distroless/static-debian12:nonroot: no shell, no
# libc; the users root, nobody and nonroot (65532), a CA bundle and /tmp,
# as the original has. build.sh prepares the context.
FROM scratch
COPY rootfs/ /
USER 65532:65532
LABEL org.gusset.stand-in="distroless static, from files build.sh writes"
