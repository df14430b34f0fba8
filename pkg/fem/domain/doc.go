// Package domain is the engine model that every analysis shares: the
// input types (Model: nodes, materials, sections, members, supports,
// constraints, load cases, combinations), Build, which checks and
// prepares a Model once into a Domain, the Element interface through which
// analyses assemble and recover any element family, the frame family
// (FrameElement), the shell family (ShellElement: plates), and the
// resolution of load cases and combinations into Loads.
//
// # Units and axes
//
// SI throughout: m, N, Pa, kg/m³, rad, K. Self-weight accelerations are in
// units of standard gravity G. Nodes have six DOFs in global axes, ux uy uz
// rx ry rz, right-hand rule; member local axes follow package geom (x from
// end A to end B, the section's principal angle added to the member's
// direction angle, so local y and z are the section's principal axes).
// Member loads in Local axes, release codes and Local rigid offsets refer
// to those axes.
//
// # Plates
//
// A plate's local axes follow package geom (z the normal, x from the A→B
// edge turned by the direction angle, or toward a direction node or axis).
// The element works on the plate's mean plane; each corner node is joined
// to its point on the reference surface by a rigid link along the normal,
// of length offset − (the corner's height above the mean plane), so a
// warped quad and an offset reference surface are one transform. Pressures
// are per unit area (Local: plate axes; GlobalInclined: global axes, per
// unit of the plate's area; GlobalProjected: global axes, per unit of the
// area projected normal to each axis). Plate results (ShellElement.Result)
// are in plate local axes: resultants at the centroid, nodal forces at the
// nodes; package shell gives their signs. Build fails on a plate that
// cannot be analysed (degenerate, re-entrant, warped beyond WarpFail),
// naming it and the reason, and warns of mild distortion.
//
// # Elements
//
// Domain.Elements holds every element; the frames come first, element i
// being member i (Domain.Frames[i]), so per-member state of an analysis
// indexes both. An element writes its matrices and vectors in global axes
// at its nodes into buffers the caller owns (see Element); a frame's own
// recovery — end actions, member end displacements — is FrameElement.End.
//
// # Errors
//
// An error the user must fix in the model or the settings is a
// *ModelError: its message is what the user reads, and its fields name
// the node, member, plate, load case and DOF at fault (0 or "" for none).
// Build's are all model errors — a missing node, section or material
// names the member, a bad support code the node, a bad constraint its
// index and master, a degenerate plate the plate — but for the checks of
// an element family plugged in through BuildOptions.Elements, which
// return their own errors. Resolving loads names the load case and the
// missing member or node, and Domain.Mechanism turns a zero pivot into
// the mechanism at a node and DOF.
//
// Analyses add context as they pass an error up with Wrapf, which keeps a
// model error a model error whose message holds the context; errors.As
// finds the outermost, so its message is the whole of what the user
// reads, but for the "analyze: " or "stations: " of package static's
// entry points, which name the engine's operation, not the fault. Any
// error that is not a model error is an internal fault (package fem).
package domain
