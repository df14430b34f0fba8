package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

// streamList sends a list that may be large (no limit, or a limit past
// one read) as it reads it (editor.Collection.Stream), a read at a time,
// so that a list of any size costs bounded memory; a page of more than
// MAX_RESPONSE_ROWS is refused before any row is sent.
func (h *collection[T]) streamList(c *fiber.Ctx, q editor.ListQuery[T], all bool, u model.Units) error {
	ws := workspace(c)
	return h.a.stream(c, "list of "+h.noun()+"s", func(ctx context.Context, s *jsonStream) error {
		err := h.c.Stream(ctx, ws, q, func(total int64, more bool) error {
			// A filtered list that stopped early (total -1) has a full page.
			rows := q.Limit
			if total >= 0 {
				rows = max(total-q.Offset, 0)
				if q.Limit >= 0 {
					rows = min(rows, q.Limit)
				}
			}
			if err := h.a.checkRows(rows); err != nil {
				return err
			}
			s.begin(func(c *fiber.Ctx) { setPaging(c, total, q.Offset, q.Limit, more) }, "[")
			return nil
		}, func(recs []T) error {
			if h.hydrate != nil {
				if err := h.hydrate(ctx, ws, recs, all); err != nil {
					return err
				}
			}
			for i := range recs {
				w := toWire(recs[i], u)
				if err := s.item(&w); err != nil {
					return err
				}
			}
			return s.sent()
		})
		if err != nil {
			return err
		}
		return s.end("]", nil, "")
	})
}
