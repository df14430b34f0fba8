// Package composetest brings up docker-compose.yml for real and breaks it
// on purpose: `make test-compose` (tag compose) builds the images
// (`make images`), starts Redis with AOF, two API replicas behind nginx,
// two workers and Prometheus, and runs the operator scenarios against the
// proxy's port, published on 127.0.0.1 only: the README's first session
// and an example script, a worker killed mid-run, a worker cut off from
// the network, Redis restarted, the API replicas restarted one by one,
// workers scaled out, and Prometheus's view of it all. Each scenario
// logs its figures in lines that start with "figure:".
//
// It needs a Docker engine and docker-compose (bash .ci/run installs and
// starts them). The package holds no code outside its tests.
package composetest
