package sparse

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// WriteMatrixMarket writes a as a real symmetric coordinate Matrix Market
// file: 1-based indices, lower triangle (row ≥ column), as the format wants.
func WriteMatrixMarket(w io.Writer, a *SymMatrix) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	p := a.Pat
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", p.N, p.N, p.Nnz())
	buf := make([]byte, 0, 64)
	for j := 0; j < p.N; j++ {
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			buf = strconv.AppendInt(buf[:0], int64(p.RowIdx[q])+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, a.Val[q], 'g', 17, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("sparse: write matrix market: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sparse: write matrix market: %w", err)
	}
	return nil
}

// WriteMatrixMarketArray writes the vector b as a dense n×1 "array" Matrix
// Market file (the usual form of a right-hand side).
func WriteMatrixMarketArray(w io.Writer, b []float64) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix array real general\n%d 1\n", len(b))
	for _, v := range b {
		bw.WriteString(strconv.FormatFloat(v, 'g', 17, 64))
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sparse: write matrix market array: %w", err)
	}
	return nil
}
