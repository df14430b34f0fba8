package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// Each REDIS_URL form gives the client kind and options it names, without
// dialling (TLS forms need no TLS server here).
func TestParseRedisURLForms(t *testing.T) {
	single := func(u string) *redis.Options {
		t.Helper()
		tg, err := parseRedisURL(u)
		if err != nil || tg.single == nil {
			t.Fatalf("%s: %+v, %v", u, tg, err)
		}
		return tg.single
	}
	o := single("redis://127.0.0.1:6380/2")
	if o.Addr != "127.0.0.1:6380" || o.DB != 2 || o.TLSConfig != nil || o.ReadTimeout != redisTimeout || o.WriteTimeout != redisTimeout {
		t.Errorf("redis://: %+v", o)
	}
	if o = single("redis://h:1/0?read_timeout=3s"); o.ReadTimeout != 3*time.Second || o.WriteTimeout != redisTimeout {
		t.Errorf("read_timeout: read %s write %s", o.ReadTimeout, o.WriteTimeout)
	}
	if o = single("rediss://u:p@cache.example:6380/1"); o.TLSConfig == nil || o.TLSConfig.ServerName != "cache.example" ||
		o.Username != "u" || o.Password != "p" || o.DB != 1 {
		t.Errorf("rediss://: %+v", o)
	}

	tg, err := parseRedisURL("redis-sentinel://suser:spass@s1:26379/3?master_name=mymaster&addr=s2:26380&username=muser&password=mpass")
	if err != nil || tg.failover == nil {
		t.Fatalf("redis-sentinel://: %+v, %v", tg, err)
	}
	f := tg.failover
	if f.MasterName != "mymaster" || strings.Join(f.SentinelAddrs, ",") != "s1:26379,s2:26380" || f.DB != 3 ||
		f.SentinelUsername != "suser" || f.SentinelPassword != "spass" || f.Username != "muser" || f.Password != "mpass" ||
		f.TLSConfig != nil || f.ReadTimeout != redisTimeout || f.WriteTimeout != redisTimeout {
		t.Errorf("redis-sentinel://: %+v", f)
	}
	// asynq's spelling of the master's name, and TLS.
	if tg, err = parseRedisURL("rediss-sentinel://s1:26379?master=m2"); err != nil || tg.failover == nil ||
		tg.failover.MasterName != "m2" || tg.failover.TLSConfig == nil {
		t.Errorf("rediss-sentinel:// with master=: %+v, %v", tg.failover, err)
	}
	if tg, err = parseRedisURL("redis-sentinel://s1:26379?master=m2&master_name=m2"); err != nil || tg.failover.MasterName != "m2" {
		t.Errorf("master= and master_name= agreeing: %v", err)
	}

	tg, err = parseRedisURL("redis-cluster://u:p@n1:7000?addr=n2:7001&addr=n3:7002&read_timeout=4s")
	if err != nil || tg.cluster == nil {
		t.Fatalf("redis-cluster://: %+v, %v", tg, err)
	}
	c := tg.cluster
	if strings.Join(c.Addrs, ",") != "n1:7000,n2:7001,n3:7002" || c.Username != "u" || c.Password != "p" ||
		c.TLSConfig != nil || c.ReadTimeout != 4*time.Second || c.WriteTimeout != redisTimeout {
		t.Errorf("redis-cluster://: %+v", c)
	}
	for _, u := range []string{"rediss-cluster://n1:7000", "rediss-cluster://n1:7000/0", "rediss-cluster://n1:7000/?db=0"} {
		if tg, err = parseRedisURL(u); err != nil || tg.cluster == nil || tg.cluster.TLSConfig == nil {
			t.Errorf("%s: %+v, %v", u, tg.cluster, err)
		}
	}

	// Each form makes its client kind.
	for u, want := range map[string]string{
		"redis://h:1":                                 "*redis.Client",
		"redis-sentinel://h:1?master_name=m":          "*redis.Client", // a failover client
		"redis-cluster://h:1?addr=h:2":                "*redis.ClusterClient",
		"rediss-cluster://h:1?addr=h:2&addr=h:3":      "*redis.ClusterClient",
		"rediss-sentinel://h:1?master_name=m&db=2":    "*redis.Client",
		"unix:///run/redis/redis.sock?db=1":           "*redis.Client",
		"REDIS://h:1":                                 "*redis.Client",
		"redis-sentinel://h:1?master_name=m&addr=h:2": "*redis.Client",
	} {
		tg, err := parseRedisURL(u)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		rdb := tg.client()
		if got := fmt.Sprintf("%T", rdb); got != want {
			t.Errorf("%s: client %s, want %s", u, got, want)
		}
		_ = rdb.Close()
	}
}

// A URL OpenRedis cannot use is refused with a message that names
// REDIS_URL, says what is wrong and lists the forms it takes.
func TestRedisURLErrors(t *testing.T) {
	for u, want := range map[string]string{
		"":                          "REDIS_URL is empty",
		"http://h:1":                `unsupported scheme "http"`,
		"h:6379":                    "unsupported scheme",
		"redis-sentinel://s1:26379": "master_name=NAME",
		"redis-sentinel://s1:26379?master=a&master_name=b": "disagree",
		"redis-cluster://n1:7000/2":                        "only database 0",
		"redis-cluster://n1:7000?db=1":                     "only database 0",
		"redis-cluster://n1:7000?addr=n2":                  "addr",
		"redis://h:1?bogus=1":                              "unexpected option",
		"redis://h:port":                                   "not a valid URL",
	} {
		_, err := parseRedisURL(u)
		if err == nil {
			t.Errorf("%q accepted", u)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "REDIS_URL") || !strings.Contains(msg, want) ||
			!strings.Contains(msg, "redis-sentinel://") || !strings.Contains(msg, "redis-cluster://") || !strings.Contains(msg, "rediss://") {
			t.Errorf("%q: %v; want REDIS_URL, %q and the forms", u, msg, want)
		}
	}
}

// No message shows a password: of the URL's user, of a password= option,
// on a URL that does not parse, or when the server refuses it.
func TestRedisURLErrorsHideThePassword(t *testing.T) {
	const secret = "s3cr3t-Pw"
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the message shows the password: %v", what, err)
		}
	}
	for _, u := range []string{
		"redis://user:" + secret + "@h:port",
		"redis://user:" + secret + "/x@h:1",
		"redis://user:" + secret + "@h:1?bogus=" + secret,
		"redis://h:1?password=" + secret + "&bogus=1",
		"redis://h:1?password=" + secret + "&read_timeout=" + secret,
		"http://user:" + secret + "@h:1",
		"redis-sentinel://:" + secret + "@s1:26379?password=" + secret,
		"redis-sentinel://s1:26379?master_name=m&password=" + secret + "&db=" + secret,
		"redis-cluster://:" + secret + "@n1:7000/" + secret,
		"redis-cluster://n1:7000?password=" + secret + "&addr=" + secret,
		"rediss-cluster://:" + secret + "@n1:7000?max_retries=" + secret,
	} {
		_, err := parseRedisURL(u)
		check(u, err)
	}

	// Nothing listens on a closed port: the dial fails for each form.
	closed := closedAddr(t)
	ctx := context.Background()
	for _, u := range []string{
		"redis://:" + secret + "@" + closed + "/0",
		"redis-sentinel://:" + secret + "@" + closed + "?master_name=m&password=" + secret,
		"redis-cluster://:" + secret + "@" + closed,
	} {
		// The failover client keeps asking the Sentinel until the deadline.
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := OpenRedis(dctx, u)
		cancel()
		check(u, err)
		if err != nil && !strings.Contains(err.Error(), closed) {
			t.Errorf("%s: the message does not name the address: %v", u, err)
		}
	}

	// A server that refuses the password.
	srv := redistest.StartSingle(t)
	if err := srv.Client(t).ConfigSet(ctx, "requirepass", "right-one").Err(); err != nil {
		t.Fatal(err)
	}
	_, err := OpenRedis(ctx, "redis://:"+secret+"@"+srv.Addr)
	check("wrong password", err)
	if err != nil && !strings.Contains(err.Error(), srv.Addr) {
		t.Errorf("wrong password: the message does not name the server: %v", err)
	}
	rdb, err := OpenRedis(ctx, "redis://:right-one@"+srv.Addr)
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	_ = rdb.Close()
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// roundTrip writes and reads keys of several slots through rdb.
func roundTrip(t *testing.T, rdb redis.UniversalClient) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		k := fmt.Sprintf("url-test-%d", i)
		if err := rdb.Set(ctx, k, i, 0).Err(); err != nil {
			t.Fatalf("SET %s: %v", k, err)
		}
		if v, err := rdb.Get(ctx, k).Int(); err != nil || v != i {
			t.Fatalf("GET %s: %d, %v", k, v, err)
		}
	}
}

// queueRoundTrip queues a task through rdb and has a worker on rdb run
// it: asynq works over the client kind.
func queueRoundTrip(t *testing.T, rdb redis.UniversalClient) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string, 1)
	w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun,
		Handle: func(_ context.Context, payload []byte) error {
			done <- string(payload)
			return nil
		}})
	stopped := make(chan error, 1)
	go func() { stopped <- w.Run(ctx) }()
	defer func() { cancel(); <-stopped }()
	c := queue.NewClient(rdb)
	if err := c.Enqueue(ctx, "default", "run-1", []byte(`{"run":1}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-done:
		if p != `{"run":1}` {
			t.Errorf("payload %s", p)
		}
	case <-time.After(patience):
		t.Fatalf("the worker did not run the task within %v", patience)
	}
	if st, err := c.Stats(ctx); err != nil || st.Depth != 0 {
		t.Errorf("depth after the run: %d, %v", st.Depth, err)
	}
}

func TestOpenRedisSingleServer(t *testing.T) {
	srv := redistest.StartSingle(t)
	rdb, err := OpenRedis(context.Background(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if _, ok := rdb.(*redis.Client); !ok {
		t.Fatalf("client %T", rdb)
	}
	roundTrip(t, rdb)
	// Connect, which the services call, is OpenRedis.
	c, err := Connect(context.Background(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
}

// Through a Sentinel: the client finds the master Sentinel monitors and
// writes there, the queue included.
func TestOpenRedisSentinel(t *testing.T) {
	master := redistest.StartSingle(t)
	sentinel := redistest.StartSentinel(t, "mymaster", master)
	ctx := context.Background()
	for _, u := range []string{
		"redis-sentinel://" + sentinel.Addr + "/0?master_name=mymaster",
		"redis-sentinel://" + sentinel.Addr + "?master=mymaster", // asynq's spelling
	} {
		rdb, err := OpenRedis(ctx, u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		roundTrip(t, rdb)
		_ = rdb.Close()
	}
	if v, err := master.Client(t).Get(ctx, "url-test-3").Result(); err != nil || v != "3" {
		t.Errorf("the master holds %q, %v: the client did not write to it", v, err)
	}
	rdb, err := OpenRedis(ctx, "redis-sentinel://"+sentinel.Addr+"?master_name=mymaster")
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	queueRoundTrip(t, rdb)
	// A master Sentinel does not know.
	if _, err := OpenRedis(ctx, "redis-sentinel://"+sentinel.Addr+"?master_name=other"); err == nil ||
		!strings.Contains(err.Error(), `"other"`) || !strings.Contains(err.Error(), sentinel.Addr) {
		t.Errorf("unknown master: %v", err)
	}
}

// Through a three-master cluster: keys of every node, the queue, and a
// plain redis:// URL to a cluster node refused at once.
func TestOpenRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx := context.Background()
	rdb, err := OpenRedis(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		t.Fatalf("client %T", rdb)
	}
	roundTrip(t, rdb)
	masters := 0
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		if k, err := n.DBSize(ctx).Result(); err != nil || k == 0 {
			return fmt.Errorf("master %s holds %d keys: %v", n.Options().Addr, k, err)
		}
		masters++
		return nil
	}); err != nil || masters != 3 {
		t.Errorf("keys on %d masters: %v", masters, err)
	}
	queueRoundTrip(t, rdb)
	// One seed node is enough to find the others.
	one, err := OpenRedis(ctx, "redis-cluster://"+c.Nodes[2].Addr)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, one)
	_ = one.Close()
	if _, err := OpenRedis(ctx, "redis://"+c.Nodes[0].Addr); err == nil || !strings.Contains(err.Error(), "redis-cluster://") {
		t.Errorf("redis:// to a cluster node: %v", err)
	}
	// A cluster URL to a server that is not in a cluster.
	single := redistest.StartSingle(t)
	if _, err := OpenRedis(ctx, "redis-cluster://"+single.Addr); err == nil || !strings.Contains(err.Error(), single.Addr) {
		t.Errorf("redis-cluster:// to a plain server: %v", err)
	}
}
