# Stand-in for the official golang image: Debian plus the Go toolchain of
# the machine that builds it (the build context is its GOROOT). Only the
# module proxy is reached from it, over the CA bundle the Debian base
# carries.
FROM debian:bookworm
COPY . /usr/local/go
ENV GOPATH=/go PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin GOTOOLCHAIN=local
WORKDIR /go
LABEL org.gusset.stand-in="golang from the host's Go toolchain"
