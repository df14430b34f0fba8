package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// redisCollector reports whether the process's Redis answers and how much
// memory it uses, read when scraped.
type redisCollector struct {
	rdb      redis.UniversalClient
	up, used *prometheus.Desc
}

// newRedisCollector reports on rdb: a single server, or the masters of a
// cluster (*redis.ClusterClient) summed.
func newRedisCollector(rdb redis.UniversalClient) prometheus.Collector {
	return &redisCollector{rdb: rdb,
		up: prometheus.NewDesc("gusset_redis_up",
			"1 when every Redis server this process uses answered PING within 2 s at the scrape, else 0.", nil, nil),
		used: prometheus.NewDesc("gusset_redis_used_memory_bytes",
			"Memory Redis has allocated (INFO memory used_memory), summed over the masters of a cluster.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *redisCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.up
	ch <- c.used
}

// Collect implements prometheus.Collector. When Redis does not answer,
// up is 0 and the memory sample is left out (no sample rather than a
// made-up 0).
func (c *redisCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	used, err := redisUsedMemory(ctx, c.rdb)
	up := 1.0
	if err != nil && !errors.Is(err, errNoUsedMemory) {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up)
	if err == nil {
		ch <- prometheus.MustNewConstMetric(c.used, prometheus.GaugeValue, float64(used))
	}
}

// errNoUsedMemory is a Redis that answers but reports no used_memory (an
// embedded Redis that does not implement INFO memory): up, with no memory
// sample.
var errNoUsedMemory = errors.New("redis reports no used_memory")

// redisUsedMemory returns used_memory of rdb's server, or the sum over the
// masters of a cluster. An error wrapping errNoUsedMemory means every
// server answered PING but one of them gave no figure.
func redisUsedMemory(ctx context.Context, rdb redis.UniversalClient) (int64, error) {
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return nodeUsedMemory(ctx, rdb)
	}
	var (
		mu    sync.Mutex
		total int64
		soft  error
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		n, err := nodeUsedMemory(ctx, node)
		if errors.Is(err, errNoUsedMemory) {
			// Keep asking the other masters: one of them may be down,
			// which matters more.
			mu.Lock()
			soft = err
			mu.Unlock()
			return nil
		}
		if err != nil {
			return err
		}
		mu.Lock()
		total += n
		mu.Unlock()
		return nil
	})
	if err != nil {
		return 0, err
	}
	return total, soft
}

// nodeUsedMemory pings one server, then reads used_memory from its INFO.
func nodeUsedMemory(ctx context.Context, c redis.Cmdable) (int64, error) {
	if err := c.Ping(ctx).Err(); err != nil {
		return 0, fmt.Errorf("redis ping: %w", err)
	}
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		var rerr redis.Error
		if errors.As(err, &rerr) {
			// The server answered, refusing the command.
			return 0, fmt.Errorf("%w: %w", errNoUsedMemory, err)
		}
		return 0, fmt.Errorf("redis info: %w", err)
	}
	n, ok := infoField(info, "used_memory")
	if !ok {
		return 0, errNoUsedMemory
	}
	return n, nil
}

// infoField returns the integer field name of an INFO reply
// ("name:value" lines).
func infoField(info, name string) (int64, bool) {
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || k != name {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}
