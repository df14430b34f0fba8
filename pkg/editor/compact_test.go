package editor

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

func TestCompact(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":0,"b":1}`, `{"b":1}`},
		{`{"b":1,"a":0}`, `{"b":1}`},
		{`{"a":0}`, `{}`},
		{`{"a":0,"b":false,"c":""}`, `{}`},
		{`{"a":0.5,"b":10,"c":"0","d":[0],"e":null,"f":[]}`, `{"a":0.5,"b":10,"c":"0","d":[0],"e":null,"f":[]}`},
		{`{"s":"\"a\":0,","t":{"x":0,"y":2}}`, `{"s":"\"a\":0,","t":{"y":2}}`},
		{`{"r":[{"a":0,"b":1},{"a":0}]}`, `{"r":[{"b":1},{}]}`},
		{`{"a":-0.0,"b":0e0}`, `{"a":-0.0,"b":0e0}`},
	}
	for _, c := range cases {
		if got := string(compact([]byte(c.in))); got != c.want {
			t.Errorf("compact(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A compacted record decodes to exactly the record.
func TestCompactRoundTrip(t *testing.T) {
	m := model.Member{ID: 3, NodeA: 1, NodeB: 2, Type: "Normal", Section: 1, Material: 1,
		Direction: model.Direction{Source: "Angle", DirAxis: "NotApplicable"},
		Releases:  model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFR", RzStiffnessAtB: 0}}
	s := model.Section{ID: 1, Name: "x", A: 1, Shapes: []model.Shape{}}
	r := model.NodeRestraint{Node: 4, RestraintCode: "VFFFFF", TxVariableTable: &model.Table{Rows: [][]float64{{0, 5}, {0.01, 0}}}}
	for _, v := range []any{&m, &s, &r} {
		full, _ := json.Marshal(v)
		small := compact(full)
		back := reflect.New(reflect.TypeOf(v).Elem())
		if err := json.Unmarshal(small, back.Interface()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Interface(), v) {
			t.Errorf("%T: %s decodes to %+v", v, small, back.Interface())
		}
		if len(small) >= len(full) {
			t.Errorf("%T: no gain (%d of %d bytes)", v, len(small), len(full))
		}
	}
}
