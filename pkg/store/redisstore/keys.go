// Package redisstore implements the store interfaces on Redis.
//
// Key layout: every key of workspace w starts {ws:w}: (written ws:{w}:
// below). The braces are a Redis Cluster hash tag: all keys of a
// workspace hash to one slot, so the MULTI/WATCH transactions and Lua
// scripts that span them work on a cluster as on a single server.
//
//	ws:{w}:job                hash: state, headings, settings, units (JSON each)
//	ws:{w}:rev                counter: model revision, never reset, so a
//	                          result can always tell which model it came from
//	ws:{w}:errors             list: the job's error log (JSON records)
//	ws:{w}:lock               string: analysis lock, value is the runId
//	ws:{w}:m:{coll}           hash: key → encoded record of a model collection
//	ws:{w}:m:{coll}:ids       sorted set: keys ordered for paging
//	ws:{w}:m:{coll}:last      hash: composite-key prefix → greatest last
//	                          part ever written under it (sub-load numbering)
//	ws:{w}:run:{id}           string: one analysis run record (JSON)
//	ws:{w}:runs               list: run ids, newest first (current + history)
//	ws:{w}:run:{id}:pending   set: load cases of a fanned-out run not done yet
//	ws:{w}:run:{id}:stage     hash: results staged by its sub-tasks, fields
//	                          "{case}" (meta) and "{case}/{col}" (columns)
//	ws:{w}:res:{kind}:meta    string: results meta of an analysis kind (JSON)
//	ws:{w}:res:{kind}:c:{col} string: one packed results column
//	ws:{w}:res:keys           set: every results key, so that a model change
//	                          can delete them all in its own transaction
//
// Multi-key changes run in MULTI/EXEC under WATCH, so a failure or a race
// leaves nothing half applied.
package redisstore

import "strings"

// keys builds the key names of one workspace.
type keys struct{ prefix string }

func keysFor(ws string) keys { return keys{prefix: WorkspaceKey(ws, "")} }

// WorkspaceKey is the name of the key suffix of workspace ws, for tools
// and tests that look at Redis directly: WorkspaceKey("default", "lock")
// is "{ws:default}:lock".
func WorkspaceKey(ws, suffix string) string { return "{ws:" + ws + "}:" + suffix }

func (k keys) job() string    { return k.prefix + "job" }
func (k keys) rev() string    { return k.prefix + "rev" }
func (k keys) errors() string { return k.prefix + "errors" }
func (k keys) lock() string   { return k.prefix + "lock" }

func (k keys) run(id string) string { return k.prefix + "run:" + id }
func (k keys) runs() string         { return k.prefix + "runs" }
func (k keys) runPending(id string) string {
	return k.prefix + "run:" + id + ":pending"
}
func (k keys) runStage(id string) string { return k.prefix + "run:" + id + ":stage" }
func (k keys) resultKeys() string        { return k.prefix + "res:keys" }
func (k keys) resultMeta(kind string) string {
	return k.prefix + "res:" + kind + ":meta"
}
func (k keys) resultColumn(kind, col string) string {
	return k.prefix + "res:" + kind + ":c:" + col
}

func (k keys) coll(name string) string     { return k.prefix + "m:" + name }
func (k keys) collIDs(name string) string  { return k.prefix + "m:" + name + ":ids" }
func (k keys) collLast(name string) string { return k.prefix + "m:" + name + ":last" }

// modelKeys lists every key that holds model data of the given collections.
func (k keys) modelKeys(colls []string) []string {
	out := make([]string, 0, 3*len(colls))
	for _, c := range colls {
		out = append(out, k.coll(c), k.collIDs(c), k.collLast(c))
	}
	return out
}

// validWorkspace rejects names that would break the key layout.
func validWorkspace(ws string) bool {
	return ws != "" && !strings.ContainsAny(ws, ": \t\n{}*?[]")
}

// splitLast splits a composite key into its prefix and last part; ok is
// false for a single-part key.
func splitLast(key string) (prefix, last string, ok bool) {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return "", "", false
	}
	return key[:i], key[i+1:], true
}

// lastParts finds, per prefix, the greatest last part among keys; parts
// are zero-padded, so byte order is numeric order.
func lastParts(keys []string) map[string]string {
	var out map[string]string // none for single-part keys, the common case
	for _, k := range keys {
		p, l, ok := splitLast(k)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(keys))
		}
		if l > out[p] {
			out[p] = l
		}
	}
	return out
}
