package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestWithTx_CommitsOrRollsBack: withTx commits when fn returns nil, and
// rolls back when fn fails, panics or went on after a failed statement;
// the pool's connections stay usable after each.
func TestWithTx_CommitsOrRollsBack(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.pool.Exec(ctx, `CREATE TABLE tx_probe (v int)`); err != nil {
		t.Fatal(err)
	}
	insert := func(v int) func(*tx) error {
		return func(t *tx) error {
			_, err := t.Exec(ctx, `INSERT INTO tx_probe VALUES ($1)`, v)
			return err
		}
	}
	boom := errors.New("boom")
	if err := db.withTx(ctx, insert(1)); err != nil {
		t.Fatal(err)
	}
	if err := db.withTx(ctx, func(t *tx) error { insert(2)(t); return boom }); !errors.Is(err, boom) {
		t.Fatalf("withTx = %v; want boom", err)
	}
	err := db.withTx(ctx, func(t *tx) error {
		insert(3)(t)
		t.Exec(ctx, `SELECT 1/0`) // fails; fn goes on as if it had not
		return nil
	})
	if !errors.Is(err, pgx.ErrTxCommitRollback) {
		t.Fatalf("withTx after a failed statement = %v; want ErrTxCommitRollback", err)
	}
	func() {
		defer func() { recover() }()
		db.withTx(ctx, func(t *tx) error { insert(4)(t); panic("boom") })
	}()
	var now int64
	if err := db.withTx(ctx, func(t *tx) error { now = t.now; return insert(5)(t) }); err != nil || now <= 0 {
		t.Fatalf("withTx = %v, now %d; want a commit at the server's time", err, now)
	}
	var got []int
	rows, _ := db.pool.Query(ctx, `SELECT v FROM tx_probe ORDER BY v`)
	got, err = pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil || len(got) != 2 || got[0] != 1 || got[1] != 5 {
		t.Fatalf("committed rows = %v, %v; want [1 5]", got, err)
	}
}
