package model

import (
	"errors"
	"testing"
)

// A job file's generation record is expanded id by id, so its lists may
// name no more ids than one generation makes.
func TestGeneratedScenarioValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  GeneratedScenario
		bad  string // the offending field, "" when valid
	}{
		{"empty", GeneratedScenario{Scenario: 1}, ""},
		{"a generation's worth", GeneratedScenario{Scenario: 1, LoadCases: "1-5000", Combinations: "5001-10000", Groups: "1-2"}, ""},
		{"one id too many", GeneratedScenario{Scenario: 1, LoadCases: "1-10001"}, "loadCases"},
		{"every id", GeneratedScenario{Scenario: 1, Combinations: "1-2147483647"}, "combinations"},
		{"not an id list", GeneratedScenario{Scenario: 1, Groups: "1-x"}, "groups"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rec.Validate()
			var e *Error
			switch {
			case tc.bad == "" && err != nil:
				t.Errorf("valid record refused: %v", err)
			case tc.bad != "" && (!errors.As(err, &e) || len(e.Fields) == 0 || e.Fields[0].Field != tc.bad):
				t.Errorf("error %v, want one on %s", err, tc.bad)
			}
		})
	}
}
