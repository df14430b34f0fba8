package server

import (
	"context"
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// The Redis gauges and /readyz's storage say how full Redis is: with no
// maxmemory it cannot be full; with a maxmemory Redis has room under it is
// not; within fullReserve (64 KiB) of it, or over it, it is. The
// maxmemory is set from used_memory as read just before, so each case
// lands where it says whatever Redis uses on start.
func TestRedisStorageFull(t *testing.T) {
	ctx := context.Background()
	srv := redistest.StartSingleArgs(t, "--maxmemory-policy", "noeviction")
	rdb := srv.Client(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(newRedisCollector(rdb))
	storage := storageOf(rdb)
	for _, tc := range []struct {
		name string
		room int64 // maxmemory minus used_memory
		none bool  // no maxmemory at all
		full bool
	}{
		{"no maxmemory", 0, true, false},
		{"a MiB of room", 1 << 20, false, false},
		{"16 KiB of room", 16 << 10, false, true},
		{"over its maxmemory", -(64 << 10), false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limit := int64(0)
			if !tc.none {
				m, err := readRedisMemory(ctx, rdb)
				if err != nil {
					t.Fatal(err)
				}
				limit = m.used + tc.room
			}
			if err := rdb.ConfigSet(ctx, "maxmemory", fmt.Sprint(limit)).Err(); err != nil {
				t.Fatal(err)
			}
			g := gauges(t, reg)
			want := map[bool]float64{false: 0, true: 1}[tc.full]
			if g["gusset_redis_storage_full"] != want || g["gusset_redis_max_memory_bytes"] != float64(limit) {
				t.Errorf("full %v, max %v; want %v, %d", g["gusset_redis_storage_full"], g["gusset_redis_max_memory_bytes"], want, limit)
			}
			st, err := storage(ctx)
			if err != nil || st.Full != tc.full || st.MaxBytes != limit || st.UsedBytes <= 0 {
				t.Errorf("readyz storage %+v (%v), want full %v of max %d", st, err, tc.full, limit)
			}
		})
	}
}
