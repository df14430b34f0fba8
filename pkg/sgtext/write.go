package sgtext

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Header is the first line Write writes.
const Header = "SPACE GASS Text File - Version 1420"

// written are the collections Write carries into a file.
var written = map[string]bool{
	model.CollNodes: true, model.CollMembers: true, model.CollPlates: true, model.CollNodeRestraints: true,
	model.CollNodeConstraints: true, model.CollMemberOffsets: true, model.CollSections: true, model.CollMaterials: true,
	model.CollLoadCategories: true, model.CollLoadCases: true, model.CollNodeLoads: true, model.CollMemberConcentratedLoads: true,
	model.CollMemberDistributedLoads: true, model.CollMemberTorsionLoads: true, model.CollMemberPrestressLoads: true,
	model.CollPlateLoads: true, model.CollSelfWeightLoads: true, model.CollThermalLoads: true,
	model.CollPrescribedDisplacements: true, model.CollLumpedMassLoads: true, model.CollLoadCaseGroups: true,
	model.CollMovingLoadSettings: true, model.CollMovingLoadElements: true, model.CollMovingLoadVehicles: true,
	model.CollMovingLoadPressures: true, model.CollMovingLoadTravelPaths: true, model.CollMovingLoadScenarios: true,
}

// Write writes the model of snap as a text file in the job's units. The
// collections the format has no group for are named in a comment line
// near the top of the file, so that the file says what it left out.
func Write(out io.Writer, snap store.Snapshot) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	w := &writer{w: bw}
	c := newConverter(snap.Job.Units)
	w.line(Header)
	w.line(formatUnits(snap.Job.Units))
	var left []string
	for coll, rows := range snap.Collections {
		if !written[coll] && len(rows) > 0 {
			left = append(left, coll)
		}
	}
	if len(left) > 0 {
		sort.Strings(left)
		w.line("# not written (the format has no place for them): " + strings.Join(left, ", "))
	}
	writeHeadings(w, snap.Job.Headings)
	if snap.Job.Settings.VerticalAxis == model.VerticalZ {
		w.line("VERTICAL AXIS")
		w.line("Z")
	}
	var err error
	section := func(title, coll string, each func([]byte) error) {
		rows := snap.Collections[coll]
		if err != nil || len(rows) == 0 {
			return
		}
		rows = append([]store.Row(nil), rows...)
		sort.Slice(rows, func(i, j int) bool { return rows[i].Key < rows[j].Key })
		w.line(title)
		for _, r := range rows {
			if err = each(r.Value); err != nil {
				err = fmt.Errorf("write %s row %s: %w", coll, r.Key, err)
				return
			}
		}
	}
	section("NODES", model.CollNodes, rec(func(x model.Node) { writeNode(w, c, x) }))
	section("MEMBERS", model.CollMembers, rec(func(x model.Member) { writeMember(w, c, x) }))
	section("PLATES", model.CollPlates, rec(func(x model.Plate) { writePlate(w, c, x) }))
	section("RESTRAINTS", model.CollNodeRestraints, rec(func(x model.NodeRestraint) { writeRestraint(w, c, x) }))
	section("CONSTRAINTS", model.CollNodeConstraints, rec(func(x model.NodeConstraint) { writeConstraint(w, x) }))
	section("OFFSETS", model.CollMemberOffsets, rec(func(x model.MemberOffset) { writeOffset(w, c, x) }))
	section("SECTIONS", model.CollSections, rec(func(x model.Section) { writeSection(w, c, x) }))
	section("MATERIALS", model.CollMaterials, rec(func(x model.Material) { writeMaterial(w, c, x) }))
	section("CATEGORIES", model.CollLoadCategories, rec(func(x model.LoadCategory) { writeCategory(w, x) }))
	var combos []model.LoadCase
	section("TITLES", model.CollLoadCases, rec(func(x model.LoadCase) {
		writeTitle(w, x)
		if len(x.CombinationItems) > 0 {
			combos = append(combos, x)
		}
	}))
	section("NODELOADS", model.CollNodeLoads, rec(func(x model.NodeLoad) { writeNodeLoad(w, c, x) }))
	section("MEMBCONC", model.CollMemberConcentratedLoads, rec(func(x model.MemberConcentratedLoad) { writeMemberConc(w, c, x) }))
	section("MEMBFORCES", model.CollMemberDistributedLoads, rec(func(x model.MemberDistributedLoad) { writeDistributed(w, c, &x, forcesOf(&x)) }))
	section("MEMBMOMENTS", model.CollMemberTorsionLoads, rec(func(x model.MemberDistributedMoment) { writeDistributed(w, c, &x, momentsOf(&x)) }))
	section("MEMBPRESTRESS", model.CollMemberPrestressLoads, rec(func(x model.MemberPrestressLoad) { writePrestress(w, c, x) }))
	section("PLATEPRESSURES", model.CollPlateLoads, rec(func(x model.PlatePressureLoad) { writePlatePressure(w, c, x) }))
	section("SELFWEIGHT", model.CollSelfWeightLoads, rec(func(x model.SelfWeightLoad) { writeSelfWeight(w, c, x) }))
	var plateThermal []model.ThermalLoad
	section("MEMBTHERMAL", model.CollThermalLoads, rec(func(x model.ThermalLoad) {
		if x.ElementType == "Plate" {
			plateThermal = append(plateThermal, x)
			return
		}
		writeThermal(w, c, x)
	}))
	if len(plateThermal) > 0 {
		w.line("PLATETHERMAL")
		for _, x := range plateThermal {
			writeThermal(w, c, x)
		}
	}
	section("PRESCRIBED DISPLACEMENTS", model.CollPrescribedDisplacements, rec(func(x model.PrescribedDisplacement) { writePrescribed(w, c, x) }))
	section("LUMPED MASSES", model.CollLumpedMassLoads, rec(func(x model.LumpedMassLoad) { writeLumped(w, c, x) }))
	if len(combos) > 0 {
		w.line("COMBINATIONS")
		for _, lc := range combos {
			for _, it := range lc.CombinationItems {
				w.int(lc.ID)
				w.int(it.LoadCase)
				w.num(it.MultiplyingFactor)
				w.end()
			}
		}
	}
	section("LOAD CASE GROUPS", model.CollLoadCaseGroups, rec(func(x model.LoadCaseGroup) { writeCaseGroup(w, x) }))
	section("MOVINGSETTINGS", model.CollMovingLoadSettings, rec(func(x model.MovingLoadSettings) { writeMovingSettings(w, c, x) }))
	section("LOADEDELEMENTS", model.CollMovingLoadElements, rec(func(x model.MovingLoadElements) { writeLoadedElements(w, x) }))
	section("VEHICLES", model.CollMovingLoadVehicles, rec(func(x model.Vehicle) { writeVehicle(w, c, x) }))
	section("LANEPRESSURES", model.CollMovingLoadPressures, rec(func(x model.MovingPressure) { writePressure(w, c, x) }))
	section("TRAVELPATHS", model.CollMovingLoadTravelPaths, rec(func(x model.TravelPath) { writeTravelPath(w, c, x) }))
	section("SCENARIOS", model.CollMovingLoadScenarios, rec(func(x model.Scenario) { writeScenario(w, c, x) }))
	w.line("END")
	if err != nil {
		return err
	}
	if w.err != nil {
		return w.err
	}
	return bw.Flush()
}

// rec decodes a stored row into its record and hands it to f.
func rec[T any](f func(T)) func([]byte) error {
	return func(b []byte) error {
		var x T
		if err := json.Unmarshal(b, &x); err != nil {
			return err
		}
		f(x)
		return nil
	}
}

// Carries reports whether Write writes the collection coll.
func Carries(coll string) bool { return written[coll] }
