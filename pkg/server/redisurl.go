package server

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisURLForms lists the REDIS_URL forms OpenRedis accepts, for its
// error messages.
const redisURLForms = "redis://[user:pass@]host:port[/db][?options] (one server; rediss:// with TLS), " +
	"redis-sentinel://[user:pass@]host:port[/db]?master_name=NAME[&addr=host:port...][&password=...] " +
	"(Sentinel; rediss-sentinel:// with TLS), " +
	"redis-cluster://[user:pass@]host:port[?addr=host:port...] (Cluster; rediss-cluster:// with TLS)"

// OpenRedis opens the Redis client REDIS_URL names and checks that it
// answers:
//
//   - redis:// and rediss:// (TLS): one server, a *redis.Client (go-redis
//     ParseURL, which also takes unix:// sockets);
//   - redis-sentinel:// and rediss-sentinel://: the master a set of
//     Sentinels monitors, a failover *redis.Client (go-redis
//     ParseFailoverURL). The URL's host and each addr= are Sentinels, its
//     user and password the Sentinels' credentials; the master's are the
//     username= and password= options. master_name= names the master;
//     master= (asynq's spelling) is taken as well;
//   - redis-cluster:// and rediss-cluster://: a Redis Cluster, a
//     *redis.ClusterClient (go-redis ParseClusterURL). The host and each
//     addr= are seed nodes; a cluster has only database 0.
//
// Unless the URL sets read_timeout or write_timeout they are redisTimeout.
// No error message carries the URL's passwords.
func OpenRedis(ctx context.Context, rawURL string) (redis.UniversalClient, error) {
	target, err := parseRedisURL(rawURL)
	if err != nil {
		return nil, err
	}
	rdb := target.client()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, target.redact(fmt.Errorf("connect to %s: %w", target.where(), err))
	}
	if target.single != nil {
		// A cluster node answers a plain client until the first key of
		// another node's slot: refuse it at once. (An embedded Redis may
		// not know INFO cluster: no answer is no cluster.)
		if info, err := rdb.Info(pctx, "cluster").Result(); err == nil && strings.Contains(info, "cluster_enabled:1") {
			_ = rdb.Close()
			return nil, fmt.Errorf("REDIS_URL: %s is a Redis Cluster node: use a redis-cluster:// URL", target.where())
		}
	}
	return rdb, nil
}

// redisTarget is a parsed REDIS_URL: the options of exactly one client
// kind, and the passwords its messages must not show.
type redisTarget struct {
	single   *redis.Options
	failover *redis.FailoverOptions
	cluster  *redis.ClusterOptions
	secrets  []string
}

// client makes the client of t; it does not dial.
func (t redisTarget) client() redis.UniversalClient {
	switch {
	case t.failover != nil:
		return redis.NewFailoverClient(t.failover)
	case t.cluster != nil:
		return redis.NewClusterClient(t.cluster)
	default:
		return redis.NewClient(t.single)
	}
}

// where names what t connects to, for messages.
func (t redisTarget) where() string {
	switch {
	case t.failover != nil:
		return fmt.Sprintf("redis master %q through the sentinels at %s", t.failover.MasterName, strings.Join(t.failover.SentinelAddrs, ", "))
	case t.cluster != nil:
		return "redis cluster at " + strings.Join(t.cluster.Addrs, ", ")
	default:
		return "redis at " + t.single.Addr
	}
}

// redact returns err, or when its text shows one of t's secrets an error
// of the same text with them masked.
func (t redisTarget) redact(err error) error {
	return redactErr(err, t.secrets)
}

func redactErr(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	masked := msg
	for _, s := range secrets {
		if s != "" {
			masked = strings.ReplaceAll(masked, s, "xxxxx")
		}
	}
	if masked == msg {
		return err
	}
	return errors.New(masked)
}

// parseRedisURL reads a REDIS_URL into client options without dialling.
func parseRedisURL(raw string) (redisTarget, error) {
	if strings.TrimSpace(raw) == "" {
		return redisTarget{}, fmt.Errorf("REDIS_URL is empty: want %s", redisURLForms)
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's message quotes the whole URL, password included:
		// report only its cause, masked as well.
		// Its cause may quote part of a password that was not
		// percent-encoded: leave it out then.
		secrets := rawSecrets(raw)
		if len(secrets) > 0 {
			return redisTarget{}, fmt.Errorf("REDIS_URL is not a valid URL (percent-encode special characters of a password); want %s", redisURLForms)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return redisTarget{}, fmt.Errorf("REDIS_URL is not a valid URL: %w; want %s", err, redisURLForms)
	}
	t := redisTarget{secrets: urlSecrets(u)}
	switch scheme := strings.ToLower(u.Scheme); scheme {
	case "redis", "rediss", "unix":
		t.single, err = redis.ParseURL(raw)
		if err == nil {
			setTimeouts(&t.single.ReadTimeout, &t.single.WriteTimeout)
		}
	case "redis-sentinel", "rediss-sentinel":
		t.failover, err = parseSentinelURL(u, strings.TrimSuffix(scheme, "-sentinel"))
		if err == nil {
			setTimeouts(&t.failover.ReadTimeout, &t.failover.WriteTimeout)
		}
	case "redis-cluster", "rediss-cluster":
		t.cluster, err = parseClusterURL(u, strings.TrimSuffix(scheme, "-cluster"))
		if err == nil {
			setTimeouts(&t.cluster.ReadTimeout, &t.cluster.WriteTimeout)
		}
	default:
		err = fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	if err != nil {
		return redisTarget{}, t.redact(fmt.Errorf("REDIS_URL: %w; want %s", err, redisURLForms))
	}
	return t, nil
}

// parseSentinelURL reads a redis-sentinel URL through go-redis's
// ParseFailoverURL, which takes it with the scheme redis or rediss.
func parseSentinelURL(u *url.URL, scheme string) (*redis.FailoverOptions, error) {
	v := *u
	v.Scheme = scheme
	q := v.Query()
	if m := q.Get("master"); m != "" {
		if n := q.Get("master_name"); n != "" && n != m {
			return nil, fmt.Errorf("master=%s and master_name=%s disagree", m, n)
		}
		q.Set("master_name", m)
	}
	q.Del("master")
	v.RawQuery = q.Encode()
	opt, err := redis.ParseFailoverURL(v.String())
	if err != nil {
		return nil, err
	}
	if opt.MasterName == "" {
		return nil, errors.New("a redis-sentinel URL needs the master's name: add ?master_name=NAME")
	}
	return opt, nil
}

// parseClusterURL reads a redis-cluster URL through go-redis's
// ParseClusterURL, which takes it with the scheme redis or rediss and
// ignores a path: a database other than 0 is refused here instead.
func parseClusterURL(u *url.URL, scheme string) (*redis.ClusterOptions, error) {
	v := *u
	v.Scheme = scheme
	q := v.Query()
	db := strings.Trim(v.Path, "/")
	if q.Has("db") {
		db = q.Get("db")
		q.Del("db")
	}
	if db != "" && db != "0" {
		return nil, fmt.Errorf("database %q: a Redis Cluster has only database 0", db)
	}
	v.Path, v.RawPath = "", ""
	v.RawQuery = q.Encode()
	return redis.ParseClusterURL(v.String())
}

// setTimeouts sets the read and write timeouts the URL left at zero.
//
// The largest write is bounded by the item caps (10,000 rows per bulk
// request, 100,000 ids per delete): measured on a 2-core machine, a
// 10,000-row commit takes 20-50 ms and a 30,000-row delete 90 ms. The
// client's default 3 s is close enough to that to fire on a busy Redis;
// 10 s leaves two orders of magnitude, and a reply lost anyway is settled
// by the store rather than reported as a failure.
func setTimeouts(read, write *time.Duration) {
	if *read == 0 {
		*read = redisTimeout
	}
	if *write == 0 {
		*write = redisTimeout
	}
}

// urlSecrets are the passwords of a parsed URL, as written and as decoded.
func urlSecrets(u *url.URL) []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
		}
	}
	if p, ok := u.User.Password(); ok {
		add(p)
	}
	for _, p := range u.Query()["password"] {
		add(p)
	}
	if i := strings.Index(u.RawQuery, "password="); i >= 0 {
		raw, _, _ := strings.Cut(u.RawQuery[i+len("password="):], "&")
		add(raw)
	}
	return out
}

// rawSecrets guesses the passwords of a URL that does not parse: the
// user information (up to the last '@' before any '?', since a password
// may hold a '/') and any password= option.
func rawSecrets(raw string) []string {
	var out []string
	if _, rest, ok := strings.Cut(raw, "://"); ok {
		auth, _, _ := strings.Cut(rest, "?")
		if i := strings.LastIndexByte(auth, '@'); i >= 0 {
			userinfo := auth[:i]
			if _, pass, ok := strings.Cut(userinfo, ":"); ok && pass != "" {
				out = append(out, pass)
			}
			out = append(out, userinfo)
		}
	}
	for rest := raw; ; {
		i := strings.Index(rest, "password=")
		if i < 0 {
			break
		}
		rest = rest[i+len("password="):]
		v, _, _ := strings.Cut(rest, "&")
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
