package editor

import (
	"context"
	"fmt"
	"strings"

	"github.com/gusset/gusset/pkg/model"
)

// incompleteShown is how many incomplete plates a refusal names.
const incompleteShown = 10

// CheckPlatesComplete refuses an analysis while a plate has no material or
// no actual thickness. A plate needs only its corners to be created (the
// interface's create body), so both may be 0 until the engineer sets them;
// the engine cannot form such a plate's stiffness. The refusal names the
// first plates in id order and what each lacks. It reads the plates a page
// at a time and stops at the first incomplete ones: a complete model is
// read once, which a run reads anyway.
func (s *Structure) CheckPlatesComplete(ctx context.Context, ws string) error {
	res, err := s.Plates.ListPage(ctx, ws, ListQuery[model.Plate]{
		Filter: func(p *model.Plate) bool { return p.Material == 0 || p.ActualThickness == 0 },
		Limit:  incompleteShown,
	})
	if err != nil || len(res.Rows) == 0 {
		return err
	}
	var fields []model.FieldError
	for _, p := range res.Rows {
		for _, f := range lackingOf(p) {
			fields = append(fields, model.FieldError{Field: f, Message: fmt.Sprintf("plate %d has no %s", p.ID, f)})
		}
	}
	first := res.Rows[0]
	msg := fmt.Sprintf("plate %d has no %s", first.ID, strings.Join(lackingOf(first), " and no "))
	if n := len(res.Rows); n > 1 || res.More {
		msg += fmt.Sprintf(" (%d more plates listed in errors", n-1)
		if res.More {
			msg += ", and others after them"
		}
		msg += ")"
	}
	return &model.Error{Kind: model.KindValidation, Fields: fields,
		Msg: msg + ": set a material and an actualThickness on every plate before starting an analysis"}
}

// lackingOf names what p lacks for an analysis.
func lackingOf(p model.Plate) []string {
	var out []string
	if p.Material == 0 {
		out = append(out, "material")
	}
	if p.ActualThickness == 0 {
		out = append(out, "actualThickness")
	}
	return out
}
