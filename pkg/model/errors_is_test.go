package model

import (
	"errors"
	"fmt"
	"testing"
)

// A sentinel error still matches errors.Is after Wrap copied it and
// fmt.Errorf wrapped the copy; a different message of the same kind does
// not.
func TestSentinelSurvivesWrap(t *testing.T) {
	sentinel := E(KindConflict, "the run was cancelled")
	err := fmt.Errorf("outer: %w", Wrap("publish results", Wrap("inner", sentinel)))
	if !errors.Is(err, sentinel) {
		t.Errorf("%v does not match its sentinel", err)
	}
	if errors.Is(err, E(KindConflict, "something else")) || errors.Is(err, ErrNoJobOpen) {
		t.Errorf("%v matches a different error", err)
	}
	if KindOf(err) != KindConflict {
		t.Errorf("kind %v", KindOf(err))
	}
}
