// Package service is the API's side of analysis runs: it records a run
// and queues its task (Service.Start), reads runs and their results,
// cancels them, and gives up runs whose worker was lost. It keeps no
// state of its own, so any API replica can serve any call; the workers
// run the tasks (package lifecycle).
package service
