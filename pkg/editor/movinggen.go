package editor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/movingload"
	"github.com/gusset/gusset/pkg/store"
)

// Generation is what a moving-load generation answers.
type Generation struct {
	// LoadCases lists every moving-load case present after the
	// generation: the load and combination cases of every scenario's last
	// generation, including the kept ones of excluded scenarios.
	LoadCases []int64
	// Groups are the titles of the load-case groups this generation wrote.
	Groups []string
}

// errGenerateAnalysing refuses a generation while an analysis holds the
// workspace.
var errGenerateAnalysing = model.E(model.KindAnalysisInProgress,
	"moving loads cannot be generated while an analysis is in progress; wait for it or cancel it")

// generationMark names the store mark a generation holds, so that a
// second one answers 409 instead of running twice.
const generationMark = "moving-load-generation"

// generationTTL bounds how long a lost generation can block the next one.
const generationTTL = 2 * time.Minute

// Generate runs the moving-load generator over the open job: it replaces
// what earlier generations made of the included scenarios with new load
// cases, loads, combination cases and groups, in one change. category is
// the load category of the generated loads when given; otherwise one
// titled "Moving loads" is reused or created.
func (m *MovingLoads) Generate(ctx context.Context, ws string, category int64, given bool) (Generation, error) {
	slot, err := m.e.jobs.Slot(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	if !slot.State.IsOpen {
		return Generation{}, model.ErrNoJobOpen
	}
	if slot.Analysing {
		return Generation{}, errGenerateAnalysing
	}
	if given {
		if category < 1 || category > model.MaxID {
			return Generation{}, model.Invalid("loadCategory", "loadCategory must be a load category id from 1 to %d, got %d", model.MaxID, category)
		}
		found, err := m.e.model.Exists(ctx, ws, model.CollLoadCategories, store.Key(category))
		if err != nil {
			return Generation{}, err
		}
		if !found[0] {
			return Generation{}, model.Invalid("loadCategory", "load category %d does not exist; create it first", category)
		}
	}
	token, ok, err := m.e.model.Hold(ctx, ws, generationMark, generationTTL)
	if err != nil {
		return Generation{}, err
	}
	if !ok {
		return Generation{}, model.E(model.KindConflict, "another moving-load generation is in progress; wait for it to finish and try again")
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = m.e.model.Unhold(rctx, ws, generationMark, token)
	}()
	var out Generation
	err = m.e.replanLeased(ctx, ws, "the model kept changing while the moving loads were generated", func(ctx context.Context) error {
		out, err = m.generateOnce(ctx, ws, category, given)
		return err
	})
	return out, err
}

// genState is what one generation plans from: the model as read at one
// revision, and the ids it hands out.
type genState struct {
	ws        string
	b         store.Batch
	cases     map[int64]*model.LoadCase // every case row
	remaining map[int64]bool            // cases that stay (not replaced by this generation)
	taken     map[int64]bool            // ids this generation writes
	greatest  int64                     // greatest case id in use or handed out
	nextGroup int64
	groups    map[int64]model.LoadCaseGroup // every group row
	category  int64
	made      int // load and combination cases written, against MaxGeneratedCases
	out       Generation
}

func (m *MovingLoads) generateOnce(ctx context.Context, ws string, category int64, given bool) (Generation, error) {
	job, slot, err := m.e.jobs.Job(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	if slot.Analysing {
		return Generation{}, errGenerateAnalysing
	}
	in, err := m.input(ctx, ws, job)
	if err != nil {
		return Generation{}, err
	}
	scenarios, err := m.Scenarios.All(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	records, err := m.Generated.All(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	cases, err := m.loads.Cases.All(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	st := &genState{ws: ws, b: store.Batch{ExpectRev: slot.Rev}, cases: map[int64]*model.LoadCase{},
		remaining: map[int64]bool{}, taken: map[int64]bool{}}
	for i := range cases {
		st.cases[cases[i].ID] = &cases[i]
		st.remaining[cases[i].ID] = true
	}
	var included []model.Scenario
	regen := map[int64]bool{}
	for _, sc := range scenarios {
		if sc.Include {
			included = append(included, sc)
			regen[sc.ID] = true
		}
	}
	if len(included) > 0 && len(in.Members) == 0 && len(in.Plates) == 0 {
		return Generation{}, model.Invalid("elements-to-load",
			"no members or plates are selected to load (or none of them exists); select them in the moving-load elements to load first")
	}
	gen, err := movingload.New(in)
	if err != nil {
		return Generation{}, inputError(err)
	}
	// What the included scenarios made before goes; what the others made
	// stays, without its loads unless retainLoads. Only the cases still
	// the generator's count: a case the engineer deleted and made again
	// under the same id is theirs.
	prev := map[int64]model.GeneratedScenario{}
	var replaced, cleared []int64
	for _, r := range records {
		prev[r.Scenario] = r
		lcs, combos := st.owned(r.Scenario, idsOf(r.LoadCases)), st.owned(r.Scenario, idsOf(r.Combinations))
		switch {
		case regen[r.Scenario]:
			replaced = append(append(replaced, lcs...), combos...)
		case !in.Settings.RetainLoads:
			cleared = append(cleared, lcs...)
		}
	}
	for _, id := range replaced {
		delete(st.remaining, id)
	}
	for id := range st.remaining {
		st.greatest = max(st.greatest, id)
	}
	if err := m.deleteCaseLoads(ctx, st, append(append([]int64{}, replaced...), cleared...)); err != nil {
		return Generation{}, err
	}
	if len(included) > 0 {
		if st.category, err = m.category(ctx, st, category, given); err != nil {
			return Generation{}, err
		}
	}
	groups, err := m.loads.Groups.All(ctx, ws)
	if err != nil {
		return Generation{}, err
	}
	st.groups = map[int64]model.LoadCaseGroup{}
	for _, g := range groups {
		st.nextGroup = max(st.nextGroup, g.ID)
		st.groups[g.ID] = g
	}
	st.nextGroup++
	sort.Slice(included, func(i, j int) bool { return included[i].ID < included[j].ID })
	made := map[int64]model.GeneratedScenario{}
	for _, sc := range included {
		steps, err := gen.Scenario(sc)
		if err != nil {
			return Generation{}, inputError(err)
		}
		rec, err := m.writeScenario(st, sc, steps, prev[sc.ID])
		if err != nil {
			return Generation{}, err
		}
		made[sc.ID] = rec
	}
	m.dropReplaced(st, replaced, scenarios)
	// Every moving-load case present afterwards.
	present := map[int64]bool{}
	for _, r := range records {
		if _, ok := made[r.Scenario]; ok {
			continue
		}
		for _, id := range st.owned(r.Scenario, append(idsOf(r.LoadCases), idsOf(r.Combinations)...)) {
			present[id] = true
		}
	}
	for _, r := range made {
		for _, id := range append(idsOf(r.LoadCases), idsOf(r.Combinations)...) {
			present[id] = true
		}
	}
	st.out.LoadCases = sortedIDs(present)
	if st.out.Groups == nil {
		st.out.Groups = []string{}
	}
	if m.fault != nil {
		m.fault(&st.b)
	}
	if _, err := m.e.apply(ctx, ws, &st.b, nil); err != nil {
		if errors.Is(err, store.ErrStale) {
			return Generation{}, err
		}
		return Generation{}, fmt.Errorf("generate moving loads: %w", err)
	}
	return st.out, nil
}

// generatedNote starts the notes of every case generated for a scenario;
// ownedCase looks for it.
func generatedNote(scenario int64) string {
	return fmt.Sprintf("Generated from moving-load scenario %d ", scenario)
}

// owned keeps the ids whose case rows are still the generator's work for
// the scenario: present, and either with the generator's notes or emptied
// by a delete (a deleted case that kept its row).
func (st *genState) owned(scenario int64, ids []int64) []int64 {
	var out []int64
	for _, id := range ids {
		c := st.cases[id]
		if c != nil && (strings.HasPrefix(c.Notes, generatedNote(scenario)) || c.Title == "" && c.Notes == "") {
			out = append(out, id)
		}
	}
	return out
}

// inputError turns the generator's complaint into a validation error.
func inputError(err error) error {
	var ie *movingload.InputError
	if errors.As(err, &ie) {
		return model.Invalid(ie.Field, "%s", ie.Msg)
	}
	return err
}

// idsOf expands a stored id list (already valid).
func idsOf(list string) []int64 {
	l, ok, err := model.ParseIDList("ids", list)
	if err != nil || !ok {
		return nil
	}
	var out []int64
	for _, r := range l.Ranges {
		for id := r.Lo; id <= r.Hi; id++ {
			out = append(out, id)
		}
	}
	return out
}

// input reads the generator's input: settings, the elements to load with
// their geometry, vehicles, pressures and travel paths, in SI.
func (m *MovingLoads) input(ctx context.Context, ws string, job model.Job) (*movingload.Input, error) {
	set, err := GetSingleton(ctx, m.Settings, ws, model.DefaultMovingLoadSettings)
	if err != nil {
		return nil, err
	}
	el, err := GetSingleton(ctx, m.Elements, ws, func() model.MovingLoadElements { return model.MovingLoadElements{} })
	if err != nil {
		return nil, err
	}
	in := &movingload.Input{ZUp: job.Settings.VerticalAxis == model.VerticalZ, Settings: set,
		Vehicles: map[int64]model.Vehicle{}, Pressures: map[int64]model.MovingPressure{}, Paths: map[int64][]movingload.Station{}}
	if list, ok, _ := model.ParseIDList("members", el.Members); ok {
		geos, err := m.s.MemberGeometries(ctx, ws, job.Settings.VerticalAxis, func(x *model.Member) bool { return list.Contains(x.ID) })
		if err != nil {
			return nil, err
		}
		for _, g := range geos {
			in.Members = append(in.Members, movingload.Member{ID: g.Member,
				A: geom.Vec3{g.PointA.X, g.PointA.Y, g.PointA.Z}, B: geom.Vec3{g.PointB.X, g.PointB.Y, g.PointB.Z}})
		}
	}
	if list, ok, _ := model.ParseIDList("plates", el.Plates); ok {
		geos, err := m.s.PlateGeometries(ctx, ws, func(x *model.Plate) bool { return list.Contains(x.ID) })
		if err != nil {
			return nil, err
		}
		for _, g := range geos {
			p := movingload.Plate{ID: g.Plate}
			for _, c := range g.NodeCorners {
				p.Nodes = append(p.Nodes, c.ID)
				p.Corners = append(p.Corners, geom.Vec3{c.X, c.Y, c.Z})
			}
			in.Plates = append(in.Plates, p)
		}
	}
	vs, err := m.Vehicles.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		in.Vehicles[v.ID] = v
	}
	ps, err := m.Pressures.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		in.Pressures[p.ID] = p
	}
	paths, err := m.TravelPaths.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	if err := m.HydrateTravelPaths(ctx, ws, paths, true); err != nil {
		return nil, err
	}
	for _, p := range paths {
		st := make([]movingload.Station, len(p.Stations))
		for i, s := range p.Stations {
			st[i] = movingload.Station{At: geom.Vec3{s.X, s.Y, s.Z}, Radius: s.Radius}
		}
		in.Paths[p.ID] = st
	}
	return in, nil
}

// category resolves the load category of the generated loads: the given
// one, else the first titled "Moving loads", else a new one.
func (m *MovingLoads) category(ctx context.Context, st *genState, id int64, given bool) (int64, error) {
	if given {
		st.b.Require(model.CollLoadCategories, store.Key(id))
		return id, nil
	}
	cats, err := m.loads.Categories.All(ctx, st.ws)
	if err != nil {
		return 0, err
	}
	var last int64
	for _, c := range cats {
		if strings.EqualFold(strings.TrimSpace(c.Title), model.DefaultMovingLoadCategory) {
			st.b.Require(model.CollLoadCategories, store.Key(c.ID))
			return c.ID, nil
		}
		last = max(last, c.ID)
	}
	c := model.LoadCategory{ID: last + 1, Title: model.DefaultMovingLoadCategory, Source: "Generator",
		Notes: "created by the moving-load generator"}
	st.b.Create(model.CollLoadCategories, store.Key(c.ID), m.loads.Categories.encode(c))
	return c.ID, nil
}

// deleteCaseLoads deletes every load row of the cases.
func (m *MovingLoads) deleteCaseLoads(ctx context.Context, st *genState, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	list, _, err := model.ParseIDList("ids", model.FormatIDs(ids, nil))
	if err != nil {
		return err
	}
	ranges := make([]store.KeyRange, len(list.Ranges))
	for i, r := range list.Ranges {
		ranges[i] = store.PrefixRange(r.Lo, r.Hi)
	}
	for _, coll := range caseLoadCollections {
		page, err := m.e.model.Page(ctx, st.ws, coll, ranges, 0, -1)
		if err != nil {
			return err
		}
		for _, k := range page.Keys {
			st.b.Delete(coll, k)
		}
	}
	return nil
}

// allocate hands out n consecutive case ids from start (0: after the
// greatest in use); field names the setting in the error when one is
// taken.
func (st *genState) allocate(start int64, n int, field, what string) ([]int64, error) {
	if start == 0 {
		start = st.greatest + 1
	}
	if n == 0 {
		return nil, nil
	}
	if start+int64(n)-1 > model.MaxID {
		return nil, model.Invalid(field, "%s: %d cases from %d run past the greatest id %d", what, n, start, model.MaxID)
	}
	ids := make([]int64, n)
	for i := range ids {
		id := start + int64(i)
		if st.remaining[id] || st.taken[id] {
			return nil, model.Invalid(field, "%s: its %d cases would start at %d, but load case %d is in use; "+
				"choose a start above %d, or 0 to number them after the greatest case in use", what, n, start, id, st.greatest)
		}
		ids[i] = id
		st.taken[id] = true
	}
	st.greatest = max(st.greatest, ids[n-1])
	return ids, nil
}

// writeScenario plans one scenario's cases, loads, combinations, groups and
// record.
func (m *MovingLoads) writeScenario(st *genState, sc model.Scenario, steps []movingload.Step, prev model.GeneratedScenario) (model.GeneratedScenario, error) {
	what := fmt.Sprintf("scenario %d (%s)", sc.ID, sc.Name)
	ids, err := st.allocate(sc.StartingLoadCase, len(steps), fmt.Sprintf("scenario %d startingLoadCase", sc.ID), what)
	if err != nil {
		return model.GeneratedScenario{}, err
	}
	for i, step := range steps {
		lc := model.LoadCase{ID: ids[i], Title: caseTitle(sc.Name, fmt.Sprintf(": step %d, t = %.6g s", step.Index+1, step.Time)),
			Notes: generatedNote(sc.ID) + fmt.Sprintf("at t = %.6g s.", step.Time)}
		st.b.Put(model.CollLoadCases, store.Key(lc.ID), m.loads.Cases.encode(lc))
		if err := m.writeLoads(st, lc.ID, &step); err != nil {
			return model.GeneratedScenario{}, fmt.Errorf("%s, t = %g s: %w", what, step.Time, err)
		}
	}
	st.made += len(ids)
	var combos []int64
	for j, c := range sc.Combinations {
		field := fmt.Sprintf("scenario %d combinations[%d]", sc.ID, j)
		if c.CombineWithLoadCase != 0 && !st.remaining[c.CombineWithLoadCase] {
			return model.GeneratedScenario{}, model.Invalid(field+".combineWithLoadCase",
				"%s combinations[%d]: combineWithLoadCase %d is not a load case that stays after the generation (it does not exist or the generation replaces it)",
				what, j, c.CombineWithLoadCase)
		}
		if st.made+len(ids) > model.MaxGeneratedCases {
			return model.GeneratedScenario{}, model.Invalid(field,
				"%s: its combinations would take the generation past %d load and combination cases; "+
					"raise timeInterval, or generate fewer scenarios or combinations at a time", what, model.MaxGeneratedCases)
		}
		cids, err := st.allocate(c.StartingCombinationCase, len(ids), field+".startingCombinationCase", what+" combinations")
		if err != nil {
			return model.GeneratedScenario{}, err
		}
		for i, id := range cids {
			items := []model.CombinationItem{{LoadCase: ids[i], MultiplyingFactor: c.ScenarioFactor}}
			suffix := fmt.Sprintf(" ×%g: step %d", c.ScenarioFactor, steps[i].Index+1)
			if c.CombineWithLoadCase != 0 {
				items = append(items, model.CombinationItem{LoadCase: c.CombineWithLoadCase, MultiplyingFactor: c.LoadCaseFactor})
				suffix = fmt.Sprintf(" ×%g + case %d ×%g: step %d", c.ScenarioFactor, c.CombineWithLoadCase, c.LoadCaseFactor, steps[i].Index+1)
			}
			cc := model.CombinationLoadCase{ID: id, Title: caseTitle(sc.Name, suffix), CombinationItems: items,
				Notes: generatedNote(sc.ID) + fmt.Sprintf("(combination %d).", j+1)}
			st.b.Put(model.CollLoadCases, store.Key(id), m.loads.Combinations.encode(cc))
		}
		combos = append(combos, cids...)
		st.made += len(cids)
	}
	// Groups: the cases, and the combination cases when there are any;
	// the ids of the scenario's earlier groups are used again.
	// An earlier group is used again only while it is still the
	// generator's: present and listing what the record says it listed.
	old := idsOf(prev.Groups)
	lists := []string{prev.LoadCases, prev.Combinations}
	groupID := func(i int) int64 {
		if i < len(old) && i < len(lists) {
			if g, ok := st.groups[old[i]]; ok && normalList(g.LoadCaseList) == normalList(lists[i]) {
				return old[i]
			}
		}
		id := st.nextGroup
		st.nextGroup++
		return id
	}
	var gids []int64
	g := model.LoadCaseGroup{ID: groupID(0), Title: caseTitle(sc.Name, ""), LoadCaseList: model.FormatIDs(ids, nil)}
	st.b.Put(model.CollLoadCaseGroups, store.Key(g.ID), m.loads.Groups.encode(g))
	gids = append(gids, g.ID)
	st.out.Groups = append(st.out.Groups, g.Title)
	if len(sc.Combinations) > 0 {
		g := model.LoadCaseGroup{ID: groupID(1), Title: caseTitle(sc.Name, " combinations"), LoadCaseList: model.FormatIDs(combos, nil)}
		st.b.Put(model.CollLoadCaseGroups, store.Key(g.ID), m.loads.Groups.encode(g))
		gids = append(gids, g.ID)
		st.out.Groups = append(st.out.Groups, g.Title)
	}
	for i, id := range old {
		if i >= len(gids) && i < len(lists) {
			if g, ok := st.groups[id]; ok && normalList(g.LoadCaseList) == normalList(lists[i]) {
				st.b.Delete(model.CollLoadCaseGroups, store.Key(id))
			}
		}
	}
	rec := model.GeneratedScenario{Scenario: sc.ID, LoadCases: model.FormatIDs(ids, nil), Combinations: model.FormatIDs(combos, nil),
		Groups: model.FormatIDs(gids, nil), LoadCategory: st.category}
	st.b.Put(model.CollMovingLoadGenerated, store.Key(sc.ID), m.Generated.encode(rec))
	return rec, nil
}

// normalList is an id list in its normal form ("" when blank or bad).
func normalList(s string) string {
	l, ok, err := model.ParseIDList("ids", s)
	if err != nil || !ok {
		return ""
	}
	return l.String()
}

// caseTitle is name followed by suffix, the name shortened so that the
// whole fits in a case title.
func caseTitle(name, suffix string) string {
	room := model.MaxCaseTitle - utf8.RuneCountInString(suffix)
	if utf8.RuneCountInString(name) > room {
		r := []rune(name)
		name = string(r[:max(0, room-1)]) + "…"
	}
	return name + suffix
}

// writeLoads plans one step's load rows in case lc.
func (m *MovingLoads) writeLoads(st *genState, lc int64, step *movingload.Step) error {
	cat := st.category
	for _, n := range step.Nodes {
		if err := finiteLoad(n.F, n.M); err != nil {
			return err
		}
		r := model.NodeLoad{LoadCase: lc, Node: n.Node, LoadCategory: cat, Fx: n.F[0], Fy: n.F[1], Fz: n.F[2], Mx: n.M[0], My: n.M[1], Mz: n.M[2]}
		st.b.Put(model.CollNodeLoads, store.Key(lc, n.Node), m.loads.NodeLoads.encode(r))
	}
	sub := map[int64]int64{}
	for _, l := range step.Members {
		if err := finiteLoad(l.F, l.M); err != nil {
			return err
		}
		sub[l.Member]++
		r := model.MemberConcentratedLoad{LoadCase: lc, Member: l.Member, SubLoad: sub[l.Member], LoadCategory: cat,
			Axes: "GlobalInclined", PositionUnits: "Actual", Position: l.Position,
			Fx: l.F[0], Fy: l.F[1], Fz: l.F[2], Mx: l.M[0], My: l.M[1], Mz: l.M[2]}
		st.b.Put(model.CollMemberConcentratedLoads, store.Key(lc, l.Member, r.SubLoad), m.loads.Concentrated.encode(r))
	}
	for _, p := range step.Plates {
		if err := finiteLoad(p.P, geom.Vec3{}); err != nil {
			return err
		}
		r := model.PlatePressureLoad{LoadCase: lc, Plate: p.Plate, LoadCategory: cat, Axes: "GlobalInclined", Px: p.P[0], Py: p.P[1], Pz: p.P[2]}
		st.b.Put(model.CollPlateLoads, store.Key(lc, p.Plate), m.loads.Pressures.encode(r))
	}
	return nil
}

// finiteLoad refuses a generated load too large to store (factors that
// multiply past model.MaxMagnitude).
func finiteLoad(f, mo geom.Vec3) error {
	for _, v := range append(f[:], mo[:]...) {
		if math.IsNaN(v) || math.Abs(v) > model.MaxMagnitude {
			return model.Invalid("loads", "a generated load of %g is not finite or exceeds %g; check the load, lane and dynamic factors", v, model.MaxMagnitude)
		}
	}
	return nil
}

// dropReplaced removes the rows of replaced cases this generation did not
// write again. A case something else still refers to (a combination that
// stays, a scenario's combineWithLoadCase) keeps its row with an empty
// title, as a deleted case does.
func (m *MovingLoads) dropReplaced(st *genState, replaced []int64, scenarios []model.Scenario) {
	used := map[int64]bool{}
	for id := range st.remaining {
		for _, it := range st.cases[id].CombinationItems {
			used[it.LoadCase] = true
		}
	}
	for _, sc := range scenarios {
		for _, c := range sc.Combinations {
			used[c.CombineWithLoadCase] = true
		}
	}
	for _, id := range replaced {
		c := st.cases[id]
		if c == nil || st.taken[id] {
			continue
		}
		if used[id] {
			kept := *c
			kept.Title, kept.Notes = "", ""
			if len(kept.CombinationItems) > 0 {
				st.b.Put(model.CollLoadCases, store.Key(id), m.loads.Combinations.encode(model.CombinationLoadCase{ID: id, CombinationItems: kept.CombinationItems}))
			} else {
				st.b.Put(model.CollLoadCases, store.Key(id), m.loads.Cases.encode(kept))
			}
			continue
		}
		st.b.Delete(model.CollLoadCases, store.Key(id))
	}
}
