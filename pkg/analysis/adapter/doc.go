// Package adapter turns the stored model of a job (the editor's
// collections, SI records) into the engine's input (pkg/fem/domain), which
// knows nothing of storage, and picks the load cases a run analyses
// (Read, CaseChoice).
//
// Units are SI (N, m, kg, s, rad, K); axes are the job's global axes, with
// the vertical axis of the job's settings. Members keep their end
// releases, offsets and direction; loads keep the axes they were given
// (local, global, global inclined or projected). What the engine cannot
// take is refused here with a message that names the record (a model
// error, model.KindValidation), or kept with a warning (Input.Warnings).
package adapter
