package server

import (
	"os"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/queue"
)

// TestMain shortens the workers' wait for a task: the tests here run
// hundreds of small analyses one after another, each of which would wait
// about queue.TaskCheckInterval (a second) to be picked up.
func TestMain(m *testing.M) {
	queue.TaskCheckInterval = 20 * time.Millisecond
	os.Exit(m.Run())
}
