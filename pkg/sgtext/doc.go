// Package sgtext reads and writes the desktop program's text file format
// ("Text file input" in its manual): a job's model as lines of
// comma-separated items, grouped under title lines.
//
// Read turns a file into the snapshot of a new job: the records of each
// collection, SI, keyed and encoded exactly as the editor stores them
// (editor.EncodeRecord, store.Key), with the job's headings, settings and
// units. Write turns a snapshot back into a file in the job's units. The
// package knows no transport and no storage: the session opens what Read
// gives through the checks every job file meets.
//
// # Conventions
//
// The first line is "SPACE GASS Text File - Version N". A title line (a
// line beginning with a letter) starts a group; its first six characters
// name it. A later line with the key of an earlier one overrides it.
// Items are separated by commas; text may be quoted ("" for a quote, ||
// for a line break); # starts a comment line; blank lines are ignored; a
// line ending in & continues on the next (MaxLineChars a line,
// MaxContinuedChars a continued set); END ends the file.
//
// # Units
//
// The UNITS line (KEY:unit pairs: LENGTH, SECTION, STRENGTH, DENSITY,
// TEMP, FORCE, MOMENT, MASS, ACC, TRANS, STRESS, and PRESSURE as this
// service's extension) sets the units of the lines after it and of the
// job; a category it leaves out is in the new-job unit, but PRESSURE
// follows STRESS, the unit the desktop program gives plate pressures in. Each number is converted by the unit tag of the model
// field it fills (model.ParseUnitExpr), never by a table of this
// package: a field whose tag changes converts differently here too.
// Positions along a member given in percent are not converted; angles
// are degrees and rotations radians, as the model keeps them.
//
// # Groups and collections
//
//	HEADINGS        job headings: project heading, heading, initials, notes (a line each)
//	VERTICAL AXIS   job settings: Y or Z (extension)
//	NODES           nodes: Node,X,Y,Z
//	MEMBERS         members: Mem,DirAng,DirNode,DirAxis,Type,Na,Nb,Sp,Mp,Fa,Fb,CLen,TensLimit,
//	                CompLimit,SAxA,SRyA,SRzA,SAxB,SRyB,SRzB (+ SAyA,SAzA,SRxA,SAyB,SAzB,SRxB),
//	                or the short Mem,...,Fa,Fb,SRyA,SRzA,SRyB,SRzB,CLen
//	PLATES          plates: Plate,DirAng,DirNode,DirAxis,Type,Na,Nb,Nc,Nd,TA,TM,TB,TS,Mat,Offset
//	RESTRAINTS      nodeRestraints: Node,Rest,Gr,Gen,Ni,STx..SRz,Dirn,Nx,Ny,Nz,Dx,Dy,Dz,Fx,Fy,Fz;
//	                after a V code, Axis,Step,Disp,Stiff lines of its table
//	CONSTRAINTS     nodeConstraints: Slave,Master,Code,Axes,Xv,Yv,Zv
//	OFFSETS         memberOffsets: Mem,Axes,XA,YA,ZA,XB,YB,ZB
//	SECTIONS        sections: Sec,Secn,Lib[,Mark,Ar,Ix,Iy,Iz,Ay,Az,Pa,Af,Ixf,Iyf,Izf,Shapes,
//	                AngleType,Transposed]; shape lines after it are skipped
//	MATERIALS       materials: Mat,Name,Lib[,E,Pr,Den,Exp,Fc]
//	CATEGORIES      loadCategories: Cat,Title,Notes
//	TITLES          loadCases: Case,Title[,Notes]
//	COMBINATIONS    loadCases' combination items: Case,Lc,Factor
//	LOAD CASE GROUPS loadCaseGroups: Group,Title,CaseList
//	NODELOADS       nodeLoads: Case,Node,Fx,Fy,Fz,Mx,My,Mz,Cat
//	MEMBCONC        memberConcentratedLoads: Case,Mem,Sl,Ax,Un,Ps,Fx,Fy,Fz,Mx,My,Mz,Cat
//	MEMBFORCES      memberDistributedLoads: Case,Mem,Sl,Ax,Un,St,Fi,Xs,Xf,Ys,Yf,Zs,Zf,Cat
//	MEMBMOMENTS     memberTorsionLoads (distributed moments), as MEMBFORCES
//	MEMBPRESTRESS   memberPrestressLoads: Case,Mem,Prestress,Cat
//	PLATEPRESSURES  plateLoads: Case,Plate,Ax,Px,Py,Pz,Cat
//	SELFWEIGHT      selfWeightLoads: Case,Xacc,Yacc,Zacc,Cat
//	MEMBTHERMAL, PLATETHERMAL   thermalLoads: Case,Elem,Temp,YGrad,ZGrad,Cat
//	PRESCRIBED DISPLACEMENTS    prescribedDisplacements: Case,Node,Tx,Ty,Tz,Rx,Ry,Rz,Cat
//	LUMPED MASSES   lumpedMassLoads: Case,Node,TMx,TMy,TMz,RMx,RMy,RMz,Cat
//	MOVINGSETTINGS  movingLoadSettings: Retain,Closest,IgnoreOne,CheckVert,VertProx,KeepInPath,
//	                IgnoreOutside; * lines X,Y of the loaded area
//	LOADEDELEMENTS  movingLoadElements: "Members","Plates"
//	VEHICLES        movingLoadVehicles: Id,Name,Source,Library; * lines X,Y,Fx,Fy,Fz,Mx,My,Mz
//	LANEPRESSURES   movingLoadPressures: Id,Name,Width,Length,Px,Py,Pz,LoadSpacing
//	TRAVELPATHS     movingLoadTravelPaths: Id,Name; * lines Node,X,Y,Z,Radius
//	SCENARIOS       movingLoadScenarios: Id,Name,Include,StartingLoadCase,TimeInterval;
//	                * lines L,Type,Vehicle,Pressure,Path,Speed,Delay,Start,LoadFactor,LaneFactor,
//	                DynamicFactor,Stationary and C,ScenarioFactor,CombineWith,LoadCaseFactor,
//	                StartingCombination
//
// Codes: member types N T C A G B P, and U (pulley) and K (truss) as
// extensions; load axes L local, G global projected, A global inclined;
// position units A actual, % percent; plate types K Kirchoff, M Mindlin.
// Groups the format has and the model has no place for (design data,
// dynamic settings, groups...) are skipped with one warning each; the
// record of the last moving-load generation and plate cuts and strips are
// not written, and the file names them in a comment.
package sgtext
