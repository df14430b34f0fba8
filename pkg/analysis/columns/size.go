package columns

// The estimates of what a run stores, which a workspace's limit on stored
// result bytes is held against before a run is queued. They count the
// columns' values exactly for the row counts they are given and allow
// metaBytesPerCase for each case's record in the meta record; a run
// stores no more for a model of those counts.

// metaBytesPerCase bounds one case's record in a meta record: a CaseMeta
// with every field set is about 250 bytes of JSON (a run id of 36, a time
// of 30), an eigen case's adds its counts and exclusion reasons.
const metaBytesPerCase = 512

// metaBytesBase bounds the rest of a meta record (revision, model size).
const metaBytesBase = 256

// StaticBytes estimates the stored bytes of static results of cases load
// cases on a model of nodes, members and plates of which supports nodes
// are supported; cables adds each case's cable column (a non-linear run
// of a model with cables).
func StaticBytes(nodes, members, plates, supports, cases int64, cables bool) int64 {
	perCase := Disp.Size(int(nodes)) + React.Size(int(supports)) + End.Size(int(members)) + Summary.Size(1) + metaBytesPerCase
	if plates > 0 {
		perCase += PlateForces.Size(int(plates))
	}
	if cables {
		perCase += Cable.Size(int(members))
	}
	shared := Nodes.Size(int(nodes)) + Members.Size(int(members)) + PlateNodes.Size(int(plates)) + metaBytesBase
	return int64(shared) + cases*int64(perCase)
}

// EigenBytes estimates the stored bytes of eigen results (buckling with
// lengths, dynamic frequency without) of modes modes for each of cases
// load cases on a model of nodes and members.
func EigenBytes(nodes, members, cases, modes int64, lengths bool) int64 {
	perCase := int64(Modes.Size(int(modes)) + metaBytesPerCase)
	perCase += modes * int64(Shapes.Size(int(nodes)))
	if lengths {
		perCase += modes * int64(Lengths.Size(int(members)))
	}
	shared := Nodes.Size(int(nodes)) + Members.Size(int(members)) + metaBytesBase
	return int64(shared) + cases*perCase
}
