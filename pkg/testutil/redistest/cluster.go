package redistest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clusterSize is the number of masters of a test cluster: enough that
// keys of different workspaces land on different nodes, so that a command
// spanning two of them fails as it would in production.
const clusterSize = 3

// slotCount is the number of hash slots of a Redis Cluster.
const slotCount = 16384

// Cluster is a Redis Cluster of three masters without replicas, each a
// redis-server process owned by one test.
type Cluster struct {
	Nodes []*Server
	once  sync.Once
}

// StartCluster starts three cluster-enabled redis-servers on free loopback
// ports, gives each a third of the hash slots, joins them and waits until
// every node reports the cluster ok. The nodes stop when the test ends.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	c := &Cluster{}
	for i := 0; i < clusterSize; i++ {
		c.Nodes = append(c.Nodes, startNode(t, clusterArgs))
	}
	if err := c.form(); err != nil {
		c.Kill()
		t.Fatalf("form redis cluster: %v", err)
	}
	return c
}

// clusterArgs are a node's cluster settings. The bus port is set
// explicitly: the default, port+10000, may be taken or out of range.
func clusterArgs() ([]string, error) {
	bus, err := freePort()
	if err != nil {
		return nil, err
	}
	return []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
		"--cluster-port", strconv.Itoa(bus), "--cluster-node-timeout", "5000"}, nil
}

// form assigns the slots, joins the nodes and waits for cluster_state:ok.
func (c *Cluster) form() error {
	// A safety net, generous for a loaded machine: a cluster forms in a
	// second or two.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	clients := make([]*redis.Client, len(c.Nodes))
	for i, n := range c.Nodes {
		clients[i] = redis.NewClient(&redis.Options{Addr: n.Addr})
		defer clients[i].Close()
	}
	per := slotCount / len(c.Nodes)
	for i, rc := range clients {
		lo, hi := i*per, (i+1)*per-1
		if i == len(clients)-1 {
			hi = slotCount - 1
		}
		// Distinct epochs, as redis-cli --cluster create sets them, spare
		// the nodes the collision round.
		if err := rc.Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err(); err != nil {
			return fmt.Errorf("%s: set config epoch: %w", c.Nodes[i].Addr, err)
		}
		if err := rc.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", lo, hi).Err(); err != nil {
			return fmt.Errorf("%s: add slots %d-%d: %w", c.Nodes[i].Addr, lo, hi, err)
		}
	}
	// Every node meets every other directly, rather than through gossip.
	for i, n := range c.Nodes {
		bus, err := clients[i].ConfigGet(ctx, "cluster-port").Result()
		if err != nil {
			return fmt.Errorf("%s: read cluster-port: %w", n.Addr, err)
		}
		host, port, _ := strings.Cut(n.Addr, ":")
		for _, from := range clients[:i] {
			if err := from.Do(ctx, "CLUSTER", "MEET", host, port, bus["cluster-port"]).Err(); err != nil {
				return fmt.Errorf("meet %s: %w", n.Addr, err)
			}
		}
	}
	// A new master reports ok only two seconds after it started (Redis's
	// writable delay), so a test cluster takes about 2 s to come up.
	for {
		ready := true
		for _, rc := range clients {
			info, err := rc.ClusterInfo(ctx).Result()
			if err != nil {
				return err
			}
			if !strings.Contains(info, "cluster_state:ok") ||
				!strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(len(clients))+"\r") {
				ready = false
				break
			}
		}
		if ready {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("the nodes did not report cluster_state:ok within 30s")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Addrs are the nodes' host:port addresses.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Addr
	}
	return out
}

// URL is the cluster's redis-cluster:// URL, naming every node.
func (c *Cluster) URL() string {
	addrs := c.Addrs()
	u := "redis-cluster://" + addrs[0]
	for i, a := range addrs[1:] {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += sep + "addr=" + a
	}
	return u
}

// Client returns a cluster client, closed when the test ends.
func (c *Cluster) Client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// Kill stops every node at once, as a crash of the whole cluster would.
func (c *Cluster) Kill() {
	c.once.Do(func() {
		for _, n := range c.Nodes {
			n.kill()
		}
	})
}

// ForEachMaster runs fn on every master behind rdb: each master of a
// cluster client, or the client itself otherwise. Commands that act on a
// whole server (FLUSHALL, KEYS, DBSIZE, SCAN) must go through it to
// cover a cluster.
func ForEachMaster(ctx context.Context, rdb redis.UniversalClient, fn func(ctx context.Context, c *redis.Client) error) error {
	switch c := rdb.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, fn)
	case *redis.Client:
		return fn(ctx, c)
	default:
		return fmt.Errorf("redistest: unsupported client %T", rdb)
	}
}

// Keys returns the keys matching pattern on every master behind rdb,
// sorted.
func Keys(ctx context.Context, rdb redis.UniversalClient, pattern string) ([]string, error) {
	var mu sync.Mutex
	var out []string
	err := ForEachMaster(ctx, rdb, func(ctx context.Context, c *redis.Client) error {
		ks, err := c.Keys(ctx, pattern).Result()
		mu.Lock()
		out = append(out, ks...)
		mu.Unlock()
		return err
	})
	slices.Sort(out)
	return out, err
}

// FlushAll deletes every key on every master behind rdb.
func FlushAll(ctx context.Context, rdb redis.UniversalClient) error {
	return ForEachMaster(ctx, rdb, func(ctx context.Context, c *redis.Client) error {
		return c.FlushAll(ctx).Err()
	})
}

// DBSize is the number of keys on every master behind rdb.
func DBSize(ctx context.Context, rdb redis.UniversalClient) (int64, error) {
	var mu sync.Mutex
	var n int64
	err := ForEachMaster(ctx, rdb, func(ctx context.Context, c *redis.Client) error {
		k, err := c.DBSize(ctx).Result()
		mu.Lock()
		n += k
		mu.Unlock()
		return err
	})
	return n, err
}
