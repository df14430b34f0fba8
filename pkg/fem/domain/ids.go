package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// JoinIDs lists ids for a message, comma-separated, in decimal: the way a
// user wrote them.
func JoinIDs(ids []int64) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

// ListIDs lists at most n of ids for a message, saying how many more
// there are, so that a message about a large mesh stays one line.
func ListIDs(ids []int64, n int) string {
	if len(ids) <= n {
		return JoinIDs(ids)
	}
	return JoinIDs(ids[:n]) + fmt.Sprintf(" and %d more", len(ids)-n)
}
