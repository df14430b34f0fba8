package sgtext_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/sgtext"
)

// BenchmarkRead50kMembers is the reading share of the text import target
// (the whole import, through HTTP into Redis, is
// httpapi's BenchmarkTextImport50kMembers): 50,000 members on 50,001
// nodes read and encoded as stored rows.
func BenchmarkRead50kMembers(b *testing.B) {
	const members = 50_000
	var sb strings.Builder
	sb.WriteString(textHeaderForFuzz + "NODES\n")
	for i := 1; i <= members+1; i++ {
		fmt.Fprintf(&sb, "%d,%g,0,0\n", i, float64(i)*0.5)
	}
	sb.WriteString("MEMBERS\n")
	for i := 1; i <= members; i++ {
		fmt.Fprintf(&sb, "%d,0,0,,N,%d,%d,1,1,FFFFFF,FFFFFF\n", i, i, i+1)
	}
	sb.WriteString("SECTIONS\n1,\"310UB40.4\",\"Aust300\"\nMATERIALS\n1,\"STEEL\",\"Aust\"\n")
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if _, err := sgtext.Read(strings.NewReader(text)); err != nil {
			b.Fatal(err)
		}
	}
}
