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

	"github.com/gusset/gusset/pkg/httpapi"
)

// redisCollector reports whether the process's Redis answers, how much
// memory it uses and whether it is full, read when scraped.
type redisCollector struct {
	rdb                 redis.UniversalClient
	up, used, max, full *prometheus.Desc
}

// newRedisCollector reports on rdb: a single server, or the masters of a
// cluster (*redis.ClusterClient) summed.
func newRedisCollector(rdb redis.UniversalClient) prometheus.Collector {
	return &redisCollector{rdb: rdb,
		up: prometheus.NewDesc("gusset_redis_up",
			"1 when every Redis server this process uses answered PING within 2 s at the scrape, else 0.", nil, nil),
		used: prometheus.NewDesc("gusset_redis_used_memory_bytes",
			"Memory Redis has allocated (INFO memory used_memory), summed over the masters of a cluster.", nil, nil),
		max: prometheus.NewDesc("gusset_redis_max_memory_bytes",
			"Redis's maxmemory, summed over the masters of a cluster; 0 when one of them has none.", nil, nil),
		full: prometheus.NewDesc("gusset_redis_storage_full",
			"1 when a Redis server has less than 64 KiB left below its maxmemory, so that writes answer 503 STORAGE_FULL, else 0.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *redisCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.up
	ch <- c.used
	ch <- c.max
	ch <- c.full
}

// Collect implements prometheus.Collector. When Redis does not answer,
// up is 0 and the memory samples are left out (no sample rather than a
// made-up 0).
func (c *redisCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	mem, err := readRedisMemory(ctx, c.rdb)
	up := 1.0
	if err != nil && !errors.Is(err, errNoUsedMemory) {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up)
	if err == nil {
		full := 0.0
		if mem.full {
			full = 1
		}
		ch <- prometheus.MustNewConstMetric(c.used, prometheus.GaugeValue, float64(mem.used))
		ch <- prometheus.MustNewConstMetric(c.max, prometheus.GaugeValue, float64(mem.max))
		ch <- prometheus.MustNewConstMetric(c.full, prometheus.GaugeValue, full)
	}
}

// errNoUsedMemory is a Redis that answers but reports no used_memory (an
// embedded Redis that does not implement INFO memory): up, with no memory
// sample.
var errNoUsedMemory = errors.New("redis reports no used_memory")

// fullReserve is how close to its maxmemory a Redis counts as full. Redis
// refuses a write when its memory, with the request it is reading, is
// over the limit, so a Redis a few bytes under it already refuses all but
// the smallest writes; 64 KiB is a bulk request of a few hundred rows.
const fullReserve = 64 << 10

// redisMemory is what Redis reports of its memory: used and max summed
// over the masters of a cluster (max 0 when one has no limit), full when
// one of them is within fullReserve of its limit.
type redisMemory struct {
	used, max int64
	full      bool
}

// readRedisMemory reads the memory of rdb's server, or of the masters of
// a cluster. An error wrapping errNoUsedMemory means every server
// answered PING but one of them gave no figure.
func readRedisMemory(ctx context.Context, rdb redis.UniversalClient) (redisMemory, error) {
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return nodeMemory(ctx, rdb)
	}
	var (
		mu        sync.Mutex
		total     redisMemory
		soft      error
		unlimited bool
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		m, err := nodeMemory(ctx, node)
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
		defer mu.Unlock()
		total.used += m.used
		total.max += m.max
		unlimited = unlimited || m.max == 0
		total.full = total.full || m.full
		return nil
	})
	if err != nil {
		return redisMemory{}, err
	}
	if unlimited {
		total.max = 0
	}
	return total, soft
}

// storageOf reports how full rdb is, for /readyz.
func storageOf(rdb redis.UniversalClient) func(ctx context.Context) (httpapi.Storage, error) {
	return func(ctx context.Context) (httpapi.Storage, error) {
		m, err := readRedisMemory(ctx, rdb)
		return httpapi.Storage{Full: m.full, UsedBytes: m.used, MaxBytes: m.max}, err
	}
}

// nodeMemory pings one server, then reads used_memory and maxmemory from
// its INFO.
func nodeMemory(ctx context.Context, c redis.Cmdable) (redisMemory, error) {
	if err := c.Ping(ctx).Err(); err != nil {
		return redisMemory{}, fmt.Errorf("redis ping: %w", err)
	}
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		var rerr redis.Error
		if errors.As(err, &rerr) {
			// The server answered, refusing the command.
			return redisMemory{}, fmt.Errorf("%w: %w", errNoUsedMemory, err)
		}
		return redisMemory{}, fmt.Errorf("redis info: %w", err)
	}
	used, ok := infoField(info, "used_memory")
	if !ok {
		return redisMemory{}, errNoUsedMemory
	}
	// Redis leaves replication and AOF buffers out of what it compares
	// with maxmemory.
	notCounted, _ := infoField(info, "mem_not_counted_for_evict")
	limit, _ := infoField(info, "maxmemory")
	return redisMemory{used: used, max: limit, full: limit > 0 && used-notCounted > limit-fullReserve}, nil
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
