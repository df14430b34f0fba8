package redisstore_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// Every way a Redis cannot be used is KindUnavailable (503, retried by
// clients), never KindInternal (500): a connection refused (stopped), a
// dial that does not complete within DialTimeout (a container being
// replaced, a network partition: Go reports it as a timeout that also
// matches context.DeadlineExceeded), and a server that stops answering
// within ReadTimeout.
func TestUnreachableRedisIsUnavailable(t *testing.T) {
	// silent accepts connections and never answers.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	// closed is an address where nothing listens.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	const short = 100 * time.Millisecond
	for _, tt := range []struct {
		name string
		opts redis.Options
	}{
		{"refused", redis.Options{Addr: closed}},
		{"dial timeout", redis.Options{Addr: closed, DialTimeout: short,
			// The dial runs out of time as a dial to an address that
			// drops packets does: net's own error for a dial whose
			// context ended.
			Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
				<-ctx.Done()
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}}},
		{"read timeout", redis.Options{Addr: silent.Addr().String(), ReadTimeout: short, DisableIdentity: true, Protocol: 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.MaxRetries, o.DialerRetries = -1, 1
			rdb := redis.NewClient(&o)
			defer rdb.Close()
			_, err := redisstore.NewModel(rdb).Exists(context.Background(), "a", "nodes", "1")
			if model.KindOf(err) != model.KindUnavailable {
				t.Errorf("Exists: %v (kind %v), want KindUnavailable", err, model.KindOf(err))
			}
		})
	}
}
