// Package columns declares how analysis results are stored: columns of
// packed little-endian 8-byte values, one record type per column (the
// row types in columns.go), and the meta records that describe a result
// set. Packing, reading, sizing and the check of a job file's results all
// derive from these declarations (Column, Declare), so no other package
// knows where a value sits in a row; columns_source_test.go holds the
// packages that read and pack results (the kinds, the query layer, the
// lifecycle) to that.
//
// Values are SI (N, m, s, rad) in the axes each row type states. A new
// analysis family adds its row types here, declared with Declare.
package columns
