package geom

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValidateSimplePolygon(t *testing.T) {
	tests := []struct {
		name    string
		pts     [][2]float64
		defect  PolygonDefect // 0: valid
		message string        // a part of the expected message
	}{
		{"square ccw", [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 0, ""},
		{"square cw", [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}}, 0, ""},
		{"triangle", [][2]float64{{0, 0}, {4, 0}, {0, 3}}, 0, ""},
		{"concave L", [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0, ""},
		{"collinear point mid-edge", [][2]float64{{0, 0}, {1, 0}, {2, 0}, {2, 2}}, 0, ""},
		{"two points", [][2]float64{{0, 0}, {1, 0}}, TooFewPoints, "at least 3 points, got 2"},
		{"nan", [][2]float64{{0, 0}, {1, math.NaN()}, {0, 1}}, NonFinitePoint, "point 2"},
		{"repeated point", [][2]float64{{0, 0}, {1, 0}, {1, 0}, {0, 1}}, RepeatedPoint, "points 2 and 3 coincide"},
		{"closed ring", [][2]float64{{0, 0}, {1, 0}, {0, 1}, {0, 0}}, RepeatedPoint, "do not repeat the first point"},
		{"bow-tie", [][2]float64{{0, 0}, {1, 1}, {1, 0}, {0, 1}}, SelfIntersection, "edges 1–2 and 3–4 cross"},
		{"collinear overlap", [][2]float64{{0, 0}, {2, 0}, {2, 1}, {3, 1}, {3, 0}, {1, 0}, {1, -1}, {0, -1}},
			SelfIntersection, "edges 1–2 and 5–6 overlap"},
		{"spike doubles back", [][2]float64{{0, 0}, {2, 0}, {1, 0}, {1, 1}}, SelfIntersection,
			"edges 1–2 and 2–3 overlap: the boundary doubles back at point 2"},
		{"spike at the closing point", [][2]float64{{0, 0}, {1, 0}, {1, 1}, {2, 0}}, SelfIntersection,
			"edges 1–2 and 4–1 overlap: the boundary doubles back at point 1"},
		{"vertex on edge", [][2]float64{{0, 0}, {4, 0}, {3, 2}, {2, 0}, {1, 2}}, SelfIntersection, "point 4 lies on edge 1–2"},
		{"collinear triangle", [][2]float64{{0, 0}, {1, 0}, {2, 0}}, SelfIntersection, "doubles back"},
		{"sliver", [][2]float64{{0, 0}, {1, 0}, {0.5, 1e-12}}, SelfIntersection, "overlap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateSimplePolygon(tc.pts)
			if tc.defect == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var pe *PolygonError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidPolygon) {
				t.Fatalf("err = %v, want a *PolygonError", err)
			}
			if pe.Defect != tc.defect {
				t.Errorf("defect %d, want %d (%v)", pe.Defect, tc.defect, err)
			}
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("message %q lacks %q", err.Error(), tc.message)
			}
		})
	}
}

func TestPolygonArea(t *testing.T) {
	tests := []struct {
		name string
		pts  [][2]float64
		want float64
	}{
		{"unit square ccw", [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 1},
		{"unit square cw", [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}}, -1},
		// ½·base·height = ½·4·3.
		{"3-4-5 triangle", [][2]float64{{0, 0}, {4, 0}, {0, 3}}, 6},
		{"L shape", [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 3},
		{"far from the origin", [][2]float64{{6e6 + 0.1, 4e6 + 0.1}, {6e6 + 2.1, 4e6 + 0.1}, {6e6 + 2.1, 4e6 + 3.1}, {6e6 + 0.1, 4e6 + 3.1}}, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PolygonArea(tc.pts); math.Abs(got-tc.want) > 1e-9*math.Abs(tc.want) {
				t.Errorf("area %g, want %g", got, tc.want)
			}
		})
	}
}

func TestPointInPolygon(t *testing.T) {
	square := [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	lShape := [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	diamond := [][2]float64{{1, 0}, {2, 1}, {1, 2}, {0, 1}}
	tests := []struct {
		name string
		pts  [][2]float64
		p    [2]float64
		want bool
	}{
		{"square centre", square, [2]float64{0.5, 0.5}, true},
		{"square outside", square, [2]float64{1.5, 0.5}, false},
		{"square on edge", square, [2]float64{1, 0.5}, true},
		{"square at vertex", square, [2]float64{0, 0}, true},
		{"square just outside", square, [2]float64{1 + 1e-6, 0.5}, false},
		{"L notch", lShape, [2]float64{1.5, 1.5}, false},
		{"L arm", lShape, [2]float64{0.5, 1.5}, true},
		// Rays through vertices must count each crossing once.
		{"diamond ray through vertex", diamond, [2]float64{0.5, 1}, true},
		{"diamond outside, ray through two vertices", diamond, [2]float64{-0.5, 1}, false},
		{"too few points", square[:2], [2]float64{0.5, 0}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PointInPolygon(tc.p, tc.pts); got != tc.want {
				t.Errorf("PointInPolygon(%v) = %v, want %v", tc.p, got, tc.want)
			}
		})
	}
}
