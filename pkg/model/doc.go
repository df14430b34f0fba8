// Package model holds the domain types of a gusset job: headings, job
// settings, units, session state and the error type shared by every layer.
//
// Units: every physical quantity in this package and below it is SI (m, N,
// Pa, kg, s, K differences in °C). Job units (see Units) only describe how
// values are presented at the HTTP edge; conversion happens there, in one
// place, never here.
//
// This package knows nothing of HTTP, Redis or asynq.
package model
