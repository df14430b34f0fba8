package model

import (
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Maximum lengths of the job headings, in characters (as the interface names it).
const (
	MaxProjectHeading   = 50
	MaxHeading          = 50
	MaxDesignerInitials = 3
	MaxNotes            = 1024
)

// Headings are the job's descriptive texts.
type Headings struct {
	ProjectHeading   string `json:"projectHeading"`
	Heading          string `json:"heading"`
	DesignerInitials string `json:"designerInitials"`
	Notes            string `json:"notes"`
}

// HeadingsPatch is a partial update: nil fields stay unchanged.
type HeadingsPatch struct {
	ProjectHeading   *string `json:"projectHeading,omitempty"`
	Heading          *string `json:"heading,omitempty"`
	DesignerInitials *string `json:"designerInitials,omitempty"`
	Notes            *string `json:"notes,omitempty"`
}

// Apply validates the patch and writes the supplied fields into h. It
// changes nothing when any field is invalid.
func (p HeadingsPatch) Apply(h *Headings) error {
	checks := []struct {
		name string
		v    *string
		max  int
		dst  *string
	}{
		{"projectHeading", p.ProjectHeading, MaxProjectHeading, &h.ProjectHeading},
		{"heading", p.Heading, MaxHeading, &h.Heading},
		{"designerInitials", p.DesignerInitials, MaxDesignerInitials, &h.DesignerInitials},
		{"notes", p.Notes, MaxNotes, &h.Notes},
	}
	var fields []FieldError
	for _, c := range checks {
		if c.v != nil && utf8.RuneCountInString(*c.v) > c.max {
			fields = append(fields, FieldError{Field: c.name,
				Message: "at most " + strconv.Itoa(c.max) + " characters allowed, got " + strconv.Itoa(utf8.RuneCountInString(*c.v))})
		}
	}
	if len(fields) > 0 {
		return &Error{Kind: KindValidation, Msg: fields[0].Field + ": " + fields[0].Message, Fields: fields}
	}
	for _, c := range checks {
		if c.v != nil {
			*c.dst = *c.v
		}
	}
	return nil
}

// VerticalAxis says which global axis points up. It decides the default
// orientation of member local axes and the direction of gravity.
type VerticalAxis string

// The vertical axes a job may use.
const (
	VerticalY VerticalAxis = "YAxis"
	VerticalZ VerticalAxis = "ZAxis"
)

// Settings are the job-level settings (not the analysis settings).
type Settings struct {
	VerticalAxis VerticalAxis `json:"verticalAxis" enum:"YAxis|ZAxis"`
}

// DefaultSettings are the settings of a new job.
func DefaultSettings() Settings { return Settings{VerticalAxis: VerticalY} }

// SettingsPatch is a partial update of Settings.
type SettingsPatch struct {
	VerticalAxis *VerticalAxis `json:"verticalAxis,omitempty" enum:"YAxis|ZAxis"`
}

// Apply validates the patch and writes it into s.
func (p SettingsPatch) Apply(s *Settings) error {
	if p.VerticalAxis != nil {
		// The enum tag is the one list of axes: the API document and
		// the metadata show the same.
		allowed := DefOf(reflect.TypeOf(p)).ByName["verticalAxis"].Enum
		if !contains(allowed, string(*p.VerticalAxis)) {
			return Invalid("verticalAxis", "verticalAxis must be %s, got %q", strings.Join(allowed, " or "), string(*p.VerticalAxis))
		}
		s.VerticalAxis = *p.VerticalAxis
	}
	return nil
}

// FileSource says where the open job came from.
type FileSource string

// The sources of an open job.
const (
	SourceNone      FileSource = "None"
	SourceLocalFile FileSource = "LocalFile"
	SourceNewJob    FileSource = "NewJob"
)

// FileInfo describes the file behind the open job. Path is relative to the
// jobs directory and empty while the job has never been saved.
type FileInfo struct {
	Name   string     `json:"name"`
	Path   string     `json:"path"`
	Source FileSource `json:"source"`
}

// State is the session state of a workspace's job slot.
type State struct {
	IsOpen     bool       `json:"isOpen"`
	IsNew      bool       `json:"isNew"`
	IsModified bool       `json:"isModified"`
	OpenedAt   *time.Time `json:"openedAt"`
	File       FileInfo   `json:"file"`
	// Warnings are what the client should know about how the job opened
	// (an extension): they stay until the job closes.
	Warnings []string `json:"warnings,omitempty" doc:"what opening the job left out, for a person to read (an extension): a job file whose analysis results were not opened, because the file is not signed by this service or its signature does not match, says so here, and an imported text file names each group it skipped; absent when there is nothing to say. The warnings stay until the job closes."`
}

// ClosedState is the state of an empty job slot.
func ClosedState() State {
	return State{File: FileInfo{Source: SourceNone}}
}

// Job is the job record: headings, job settings and units, and the
// analysis settings. Analysis is left out of the record's JSON, so that
// the job record clients see keeps its shape; it is stored and saved as a
// record of its own.
type Job struct {
	Headings Headings         `json:"headings"`
	Settings Settings         `json:"settings"`
	Units    Units            `json:"units"`
	Analysis AnalysisSettings `json:"-"`
}

// NewJob returns a blank job with the default configuration.
func NewJob() Job {
	return Job{Settings: DefaultSettings(), Units: DefaultUnits(), Analysis: AnalysisSettings{}}
}
