package server

import "testing"

// BODY_MEMORY_PER_CLIENT lies between the body limit and BODY_MEMORY;
// BODY_MIN_RATE is a positive number of bytes a second;
// METRICS_WORKSPACE_LABELS is a boolean whose default keeps the names;
// MAX_RESPONSE_ROWS is a positive number of rows.
func TestFromEnvBodySharesAndLabels(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		ok   bool
		want func(Config) bool
	}{
		{"defaults", nil, true, func(c Config) bool {
			return c.BodyMemoryPerClient == 0 && c.MinBodyRate == 0 && !c.HideWorkspaceLabels && c.MaxResponseRows == 0
		}},
		{"share within the budget", map[string]string{"MAX_BODY_BYTES": "1048576", "BODY_MEMORY": "8388608",
			"BODY_MEMORY_PER_CLIENT": "4194304"}, true, func(c Config) bool { return c.BodyMemoryPerClient == 4<<20 }},
		{"share of the default budget", map[string]string{"BODY_MEMORY_PER_CLIENT": "134217728"}, true,
			func(c Config) bool { return c.BodyMemoryPerClient == 128<<20 }},
		{"share below the body limit", map[string]string{"MAX_BODY_BYTES": "1048576", "BODY_MEMORY_PER_CLIENT": "1000"}, false, nil},
		{"share over the budget", map[string]string{"MAX_BODY_BYTES": "1048576", "BODY_MEMORY": "8388608",
			"BODY_MEMORY_PER_CLIENT": "8388609"}, false, nil},
		{"share not a number", map[string]string{"BODY_MEMORY_PER_CLIENT": "half"}, false, nil},
		{"rate", map[string]string{"BODY_MIN_RATE": "4096"}, true, func(c Config) bool { return c.MinBodyRate == 4096 }},
		{"rate zero", map[string]string{"BODY_MIN_RATE": "0"}, false, nil},
		{"rate with a unit", map[string]string{"BODY_MIN_RATE": "1MiB"}, false, nil},
		{"labels hidden", map[string]string{"METRICS_WORKSPACE_LABELS": "false"}, true, func(c Config) bool { return c.HideWorkspaceLabels }},
		{"labels shown", map[string]string{"METRICS_WORKSPACE_LABELS": "true"}, true, func(c Config) bool { return !c.HideWorkspaceLabels }},
		{"labels not a boolean", map[string]string{"METRICS_WORKSPACE_LABELS": "no-names"}, false, nil},
		{"rows", map[string]string{"MAX_RESPONSE_ROWS": "5000"}, true, func(c Config) bool { return c.MaxResponseRows == 5000 }},
		{"rows zero", map[string]string{"MAX_RESPONSE_ROWS": "0"}, false, nil},
		{"rows not a number", map[string]string{"MAX_RESPONSE_ROWS": "1e6"}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"MAX_BODY_BYTES", "BODY_MEMORY", "BODY_MEMORY_PER_CLIENT", "BODY_MIN_RATE", "METRICS_WORKSPACE_LABELS", "MAX_RESPONSE_ROWS"} {
				t.Setenv(k, c.env[k])
			}
			cfg, err := FromEnv()
			if !c.ok {
				if err == nil {
					t.Fatalf("%v accepted", c.env)
				}
				return
			}
			if err != nil || !c.want(cfg) {
				t.Fatalf("%v: %+v %v", c.env, cfg, err)
			}
		})
	}
}
