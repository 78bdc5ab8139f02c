package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/ledger/durable"
)

// DB is an open PostgreSQL ledger. It is safe for concurrent use, and any
// number of processes on any number of machines may open the same server.
type DB struct {
	// Now replaces the server's clock: a test hook that drives lease expiry
	// and timestamps without sleeps. Nil in production, where every time
	// the ledger stores or compares is the server's now().
	Now func() time.Time
	// ProcessAlive reports whether a lease owner's process still runs; only
	// consulted for an owner on this host. Tests replace it.
	ProcessAlive func(ledger.Owner) bool

	pool     *pgxpool.Pool
	home     string
	location string // the URL as given: only ever shown through ledger.HidePassword
	store    *durable.Store
	schema   int
	machine  string        // the machine id this handle acts as (ledger.Where.Machine)
	lease    time.Duration // the lease length (ledger.LeaseDuration unless a test shortened it)
	merge    *merger       // merges the search index's pending list during bulk imports
}

// Machine returns the machine id this handle acts as.
func (db *DB) Machine() string { return db.machine }

// here is a lease owner on this machine and host, to compare holders with.
func (db *DB) here() ledger.Owner {
	return ledger.Owner{Machine: db.machine, Host: ledger.Host()}
}

// adopt is the machine of a row restored from a snapshot written before
// machines existed: the rebuilding machine's, as on SQLite.
func (db *DB) adopt(machine string) string {
	if machine == "" {
		return db.machine
	}
	return machine
}

// Close waits for the search index merge of what this handle imported
// (merger), then closes the connection pool.
func (db *DB) Close() error {
	db.merge.close()
	db.pool.Close()
	return nil
}

// Home returns the local data home (run directories, segments).
func (db *DB) Home() string { return db.home }

// Location names the server and database, the password hidden.
func (db *DB) Location() string { return ledger.HidePassword(db.location) }

// SchemaVersion returns the schema version of the open ledger.
func (db *DB) SchemaVersion() int { return db.schema }

// prepared, as the first argument of a statement, runs it as a prepared
// statement with binary parameters instead of the default one-round-trip
// text mode (connect), planned once per connection: for the statements of
// an import batch whose arrays are large, and for the search's statements,
// whose planning costs more than their round trip once a process repeats
// them.
const prepared = pgx.QueryExecModeCacheStatement

// sqlNow is the server's time in microseconds.
const sqlNow = `SELECT (extract(epoch FROM now()) * 1000000)::bigint`

// tx is a transaction with the server time it runs at.
type tx struct {
	querier
	now int64 // µs
	// pending estimates the bytes of search index entries the transaction
	// inserted (pendingBytes), for the merger.
	pending int
	// batch holds the statements queued to go with the transaction's next
	// batch (see queue).
	batch *pgx.Batch
}

// queue defers a statement whose result the caller does not read to the
// transaction's next round trip: the state snapshot's reads (readState)
// or, without a snapshot, a flush before COMMIT. Against a server on
// another machine every round trip saved is the network's latency; on a
// launch this saves two. Statements run in the order queued, after those
// sent before; an error in one fails the transaction as an Exec would.
func (t *tx) queue(sql string, args ...any) {
	if t.batch == nil {
		t.batch = &pgx.Batch{}
	}
	t.batch.Queue(sql, args...)
}

// takeBatch returns the queued statements as a batch to add to (a new one
// when none) and whether it holds any; the transaction's queue is empty
// after it.
func (t *tx) takeBatch() (*pgx.Batch, bool) {
	b := t.batch
	t.batch = nil
	if b == nil {
		return &pgx.Batch{}, false
	}
	return b, b.Len() > 0
}

// flush sends the queued statements, if any.
func (t *tx) flush(ctx context.Context) error {
	b, queued := t.takeBatch()
	if !queued {
		return nil
	}
	return t.SendBatch(ctx, b).Close()
}

// querier runs a transaction's statements: the pool connection that holds
// the transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// withTx runs fn in one transaction (READ COMMITTED; writers of a
// workstream serialise on its row lock, see lockWorkstream) and commits
// it when fn returns nil. BEGIN and the server's clock go to the server in
// one round trip (pgx's Begin would send BEGIN alone): a launch runs three
// transactions, and against a server on another machine every round trip
// is a network's latency. A connection left inside a transaction (a failed
// BEGIN, ROLLBACK or COMMIT) is closed by the pool, never reused.
func (db *DB) withTx(ctx context.Context, fn func(*tx) error) (err error) {
	c, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	now, err := db.begin(ctx, c)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			c.Exec(ctx, "ROLLBACK")
			panic(p)
		}
		if err != nil {
			c.Exec(ctx, "ROLLBACK")
		}
	}()
	if err = fn(&tx{querier: c, now: now}); err != nil {
		return err
	}
	tag, err := c.Exec(ctx, "COMMIT")
	if err == nil && tag.String() == "ROLLBACK" { // a statement failed and fn went on
		err = pgx.ErrTxCommitRollback
	}
	return err
}

// begin starts a transaction on c and returns its time (µs): the server's
// now() read in the same round trip, or the test hook's.
func (db *DB) begin(ctx context.Context, c *pgxpool.Conn) (int64, error) {
	if db.Now != nil {
		_, err := c.Exec(ctx, "BEGIN")
		return db.Now().UnixMicro(), err
	}
	res, err := c.Conn().PgConn().Exec(ctx, "BEGIN; "+sqlNow).ReadAll()
	if err != nil {
		return 0, err
	}
	if len(res) != 2 || len(res[1].Rows) != 1 || len(res[1].Rows[0]) != 1 {
		return 0, fmt.Errorf("begin: unexpected reply to the clock query")
	}
	return strconv.ParseInt(string(res[1].Rows[0][0]), 10, 64)
}

// serverNow is the server's time, for reads outside a transaction.
func (db *DB) serverNow(ctx context.Context) (int64, error) {
	return db.clock(ctx, db.pool)
}

// clock is the time in µs: the server's, or the test hook's.
func (db *DB) clock(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (int64, error) {
	if db.Now != nil {
		return db.Now().UnixMicro(), nil
	}
	var now int64
	err := q.QueryRow(ctx, sqlNow).Scan(&now)
	return now, err
}

// wrap adds op to err, keeps ledger errors as they are, turns a refused
// login or a lost or refused connection into one line saying what to check
// that is ledger.ErrUnavailable (exit 69; --offline runs without the
// server), and scrubs the password from whatever the driver said.
func (db *DB) wrap(err error, op string) error {
	if err == nil {
		return nil
	}
	var ue *ledger.UserError
	var be *ledger.BusyError
	if errors.As(err, &ue) || errors.As(err, &be) {
		return err
	}
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && (pe.Code == "28P01" || pe.Code == "28000"):
		err = &unavailable{cause: err, msg: fmt.Sprintf("%s: the ledger server %s refused the login (%s); check the user and password of the ledger URL, or run with --offline",
			op, db.Location(), pe.Message)}
	case unreachable(err):
		err = &unavailable{cause: err, msg: fmt.Sprintf("%s: the ledger server %s is unreachable (%s); check that it runs and that the ledger URL is right, or run with --offline",
			op, db.Location(), lastLine(err.Error()))}
	default:
		err = fmt.Errorf("%s: %w", op, err)
	}
	return ledger.ScrubError(err, db.location)
}

// unavailable is a one-line message over a driver error (whose own text
// may span lines); it is ledger.ErrUnavailable, and errors.As still
// reaches the driver's error.
type unavailable struct {
	msg   string
	cause error
}

func (e *unavailable) Error() string   { return e.msg }
func (e *unavailable) Unwrap() []error { return []error{ledger.ErrUnavailable, e.cause} }

// unreachable reports a connection that could not be made or was lost.
func unreachable(err error) bool {
	var ce *pgconn.ConnectError
	var ne *net.OpError
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// lastLine is the last non-blank line of a driver message (pgx lists one
// line per address tried; the last says what went wrong).
func lastLine(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func fromMicro(us int64) time.Time { return time.UnixMicro(us).UTC() }

type rowScanner interface{ Scan(...any) error }
