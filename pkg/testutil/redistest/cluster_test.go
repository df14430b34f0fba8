package redistest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestClusterServesEverySlotAndKillStopsAllNodes(t *testing.T) {
	start := time.Now()
	c := StartCluster(t)
	t.Logf("cluster up in %s", time.Since(start).Round(time.Millisecond))
	ctx := context.Background()
	rdb := c.Client(t)
	// Keys on every node: 30 keys without a hash tag spread over the slots.
	for i := 0; i < 30; i++ {
		if err := rdb.Set(ctx, fmt.Sprintf("k%d", i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	per := map[string]int64{}
	err := rdb.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		k, err := n.DBSize(ctx).Result()
		per[n.Options().Addr] = k
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(per) != clusterSize {
		t.Fatalf("masters %v, want %d", per, clusterSize)
	}
	for a, k := range per {
		if k == 0 {
			t.Errorf("master %s holds no key of 30: slots not spread", a)
		}
	}
	ks, err := Keys(ctx, rdb, "k*")
	if err != nil || len(ks) != 30 {
		t.Fatalf("Keys: %d keys, %v", len(ks), err)
	}
	if n, err := DBSize(ctx, rdb); err != nil || n != 30 {
		t.Fatalf("DBSize: %d, %v", n, err)
	}
	if err := FlushAll(ctx, rdb); err != nil {
		t.Fatal(err)
	}
	if n, _ := DBSize(ctx, rdb); n != 0 {
		t.Fatalf("%d keys after FlushAll", n)
	}
	if !strings.HasPrefix(c.URL(), "redis-cluster://"+c.Nodes[0].Addr+"?addr="+c.Nodes[1].Addr+"&addr=") {
		t.Errorf("URL %s", c.URL())
	}
	c.Kill()
	for _, n := range c.Nodes {
		if pingOK(n.Addr) {
			t.Errorf("node %s still answers after Kill", n.Addr)
		}
	}
}

func TestStartHonoursTheModeSwitch(t *testing.T) {
	ctx := context.Background()
	t.Setenv(EnvMode, "cluster")
	srv := Start(t)
	if _, ok := srv.Client(t).(*redis.ClusterClient); !ok || srv.Cluster() == nil {
		t.Fatalf("cluster mode: client %T", srv.Client(t))
	}
	if !strings.HasPrefix(srv.URL(), "redis-cluster://") {
		t.Errorf("cluster mode: URL %s", srv.URL())
	}
	srv.Kill()
	if err := srv.Client(t).Ping(ctx).Err(); err == nil {
		t.Error("cluster answers after Kill")
	}
	t.Setenv(EnvMode, "")
	srv = Start(t)
	if _, ok := srv.Client(t).(*redis.Client); !ok || srv.Cluster() != nil {
		t.Fatalf("single mode: client %T", srv.Client(t))
	}
	if srv.URL() != "redis://"+srv.Addr+"/0" {
		t.Errorf("single mode: URL %s", srv.URL())
	}
}
