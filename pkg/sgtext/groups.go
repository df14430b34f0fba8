package sgtext

import (
	"reflect"
	"strings"
)

// group is one data group of the format: the title that starts it and
// the reader of its lines.
type group struct {
	title string
	read  func(b *builder, r *row)
	// freeText groups (HEADINGS) take a line that is no title as text.
	freeText bool
	// letters groups have data lines that may begin with a letter (a Y/N
	// item first): a line that is no title is data.
	letters bool
	// skip groups are known to the format but have no place here.
	skip bool
}

// groupTable lists the groups this service reads, in the order Write
// writes them.
var groupTable []*group

func init() {
	groupTable = []*group{
		{title: "HEADINGS", read: readHeading, freeText: true},
		{title: "VERTICAL AXIS", read: readVertical, freeText: true},
		{title: "NODES", read: readNode},
		{title: "MEMBERS", read: readMember},
		{title: "PLATES", read: readPlate},
		{title: "RESTRAINTS", read: readRestraint},
		{title: "CONSTRAINTS", read: readConstraint},
		{title: "OFFSETS", read: readOffset},
		{title: "SECTIONS", read: readSection},
		{title: "MATERIALS", read: readMaterial},
		{title: "CATEGORIES", read: readCategory},
		{title: "TITLES", read: readTitle},
		{title: "NODELOADS", read: readNodeLoad},
		{title: "MEMBCONC", read: readMemberConc},
		{title: "MEMBFORCES", read: readMemberForces},
		{title: "MEMBMOMENTS", read: readMemberMoments},
		{title: "MEMBPRESTRESS", read: readPrestress},
		{title: "PLATEPRESSURES", read: readPlatePressure},
		{title: "SELFWEIGHT", read: readSelfWeight},
		{title: "MEMBTHERMAL", read: readMemberThermal},
		{title: "PLATETHERMAL", read: readPlateThermal},
		{title: "PRESCRIBED DISPLACEMENTS", read: readPrescribed},
		{title: "LUMPED MASSES", read: readLumped},
		{title: "COMBINATIONS", read: readCombination},
		{title: "LOAD CASE GROUPS", read: readCaseGroup},
		{title: "MOVINGSETTINGS", read: readMovingSettings, letters: true},
		{title: "LOADEDELEMENTS", read: readLoadedElements},
		{title: "VEHICLES", read: readVehicle},
		{title: "LANEPRESSURES", read: readPressure},
		{title: "TRAVELPATHS", read: readTravelPath},
		{title: "SCENARIOS", read: readScenario},
	}
}

// skippedTitles are groups of the desktop program that hold design and
// analysis data this service has no place for: their lines are skipped
// with one warning each.
var skippedTitles = []string{
	"STEELMEMBERS", "STEELCONNECTIONS", "CONCRETEMEMBERS", "CONCRETESLABS", "DESIGNGROUPS",
	"DYNAMICSETTINGS", "SPECTRAL", "HARMONIC", "TRANSIENT", "STAGED", "PLATECUTS",
	"NODEGROUPS", "PLATEGROUPS", "LAYERS", "ANALYSIS", "GRIDLINES", "VIEWS",
}

func groupOf(s string) *group {
	k := titleKey(s)
	for _, g := range groupTable {
		if titleKey(g.title) == k {
			return g
		}
	}
	return nil
}

func skippedGroup(s string) (string, bool) {
	k := titleKey(s)
	for _, t := range skippedTitles {
		if titleKey(t) == k {
			return t, true
		}
	}
	return "", false
}

func groupList() string {
	out := make([]string, 0, len(groupTable)+2)
	out = append(out, "UNITS")
	for _, g := range groupTable {
		out = append(out, g.title)
	}
	return strings.Join(append(out, "END"), ", ")
}

// deref is the struct a record pointer points to, for the encoder.
func deref(rec any) any {
	v := reflect.ValueOf(rec)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v.Interface()
}

// GroupTitles lists the title lines of the groups Read reads.
func GroupTitles() []string {
	out := make([]string, len(groupTable))
	for i, g := range groupTable {
		out[i] = g.title
	}
	return out
}
