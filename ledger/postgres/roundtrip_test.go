package postgres

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ai-memory/ai-memory/ledger"
)

// rtConn counts round trips on a connection: a read that follows a write
// is the server's answer to what the client sent.
type rtConn struct {
	net.Conn
	c *rtCounter
}

type rtCounter struct {
	mu      sync.Mutex
	n       int
	writing bool
}

func (c rtConn) Write(b []byte) (int, error) {
	c.c.mu.Lock()
	c.c.writing = true
	c.c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c rtConn) Read(b []byte) (int, error) {
	c.c.mu.Lock()
	if c.c.writing {
		c.c.n++
		c.c.writing = false
	}
	c.c.mu.Unlock()
	return c.Conn.Read(b)
}

func (c *rtCounter) take() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = 0
	return n
}

// TestLaunchRoundTrips: selecting the workstream and taking its lease, the
// two transactions a launch makes before its agent starts, cost four round
// trips each (BEGIN with the clock, the lock with what it guards, the
// change with the snapshot's reads, COMMIT). Against a server on another
// machine each round trip is the network's latency on every launch.
func TestLaunchRoundTrips(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	cfg, err := poolConfig(db.location)
	if err != nil {
		t.Fatal(err)
	}
	rt := &rtCounter{}
	dial := cfg.ConnConfig.DialFunc
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		return rtConn{Conn: c, c: rt}, err
	}
	cfg.MaxConns = 1
	// The pool pings a connection idle for over a second before handing it
	// out: on a stalled machine that would be an extra round trip here.
	cfg.ShouldPing = func(context.Context, pgxpool.ShouldPingParams) bool { return false }
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	db.pool.Close()
	db.pool, db.merge = pool, newMerger(pool)
	if err := pool.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	scope := ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w", Cwd: "/src"}
	if _, err := db.SelectWorkstream(ctx, scope, ledger.Selector{}); err != nil { // creates "default"
		t.Fatal(err)
	}
	rt.take()
	ws, err := db.SelectWorkstream(ctx, scope, ledger.Selector{})
	if n := rt.take(); err != nil || n != 4 || ws.Name != ledger.DefaultWorkstreamName || ws.Cwd != "/src" {
		t.Fatalf("SelectWorkstream = %+v, %v in %d round trips; want default in 4", ws, err, n)
	}
	run, _, err := db.AcquireLease(ctx, ws.ID, "claude", ledger.CurrentOwner())
	if n := rt.take(); err != nil || n != 4 {
		t.Fatalf("AcquireLease = %v in %d round trips; want 4", err, n)
	}
	var busy *ledger.BusyError
	if _, _, err := db.AcquireLease(ctx, ws.ID, "codex", ledger.CurrentOwner()); !errors.As(err, &busy) || busy.Holder.ID != run.ID {
		t.Fatalf("second AcquireLease = %v; want busy while run %s holds the lease", err, run.ID)
	}
}
