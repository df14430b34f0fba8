// Command gridgen writes the assembled stiffness matrix and right-hand side
// of the grid-n benchmark structure (see package gridn), or with -plate of
// the n×n plate mesh, as Matrix Market files: the matrix as symmetric
// coordinate (lower triangle, explicit zeros kept), the load case as an
// n×1 array.
//
//	gridgen -n 20 -mtx grid20.mtx -rhs grid20_b.mtx
//	gridgen -plate -n 200 -mtx plate200.mtx
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

func main() {
	n := flag.Int("n", 10, "bays per direction")
	plate := flag.Bool("plate", false, "write the n×n clamped plate mesh instead of grid-n")
	mtx := flag.String("mtx", "", "output path of the stiffness matrix (Matrix Market)")
	rhs := flag.String("rhs", "", "output path of the right-hand side (Matrix Market array)")
	flag.Parse()
	name, generate := "grid", gridn.Generate
	if *plate {
		name, generate = "plate", gridn.GeneratePlate
	}
	m, err := generate(*n)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "%s-%d: %d free DOFs, %d stored entries\n", name, *n, m.NFree, m.K.Pat.Nnz())
	if *mtx != "" {
		if err := writeFile(*mtx, func(w io.Writer) error { return sparse.WriteMatrixMarket(w, m.K) }); err != nil {
			log.Fatal(err)
		}
	}
	if *rhs != "" {
		if err := writeFile(*rhs, func(w io.Writer) error { return sparse.WriteMatrixMarketArray(w, m.RHS) }); err != nil {
			log.Fatal(err)
		}
	}
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gridgen: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("gridgen: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("gridgen: %s: %w", path, err)
	}
	return nil
}
