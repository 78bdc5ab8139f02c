package postgres

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ai-memory/ai-memory/ledger"
)

// appendWords appends n batches of 50 events to a new workstream of db,
// each event holding its own word ("wordB_E"), and returns the workstream.
func appendWords(t *testing.T, db *DB, n int) string {
	t.Helper()
	ctx := context.Background()
	ws, err := db.SelectWorkstream(ctx, ledger.Scope{RepoFingerprint: "r", WorktreeFingerprint: "w"}, ledger.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	for b := range n {
		var evs []ledger.EventInput
		for e := range 50 {
			evs = append(evs, ledger.EventInput{Harness: "claude", NativeSessionID: "s", SourceRecordID: fmt.Sprint(b, "-", e),
				Kind: ledger.KindMessage, Content: fmt.Sprintf("merge test word%d_%d", b, e)})
		}
		if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: evs}); err != nil {
			t.Fatal(err)
		}
	}
	return ws.ID
}

// pendingPages merges the pending list of the schema's search index in
// loc and returns how many pages it held.
func pendingPages(t *testing.T, loc string) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	u, _ := url.Parse(loc)
	var pages int64
	if err := conn.QueryRow(ctx, `SELECT gin_clean_pending_list(($1 || '.events_tsv')::regclass)`, u.Query().Get("search_path")).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestMerger_MergesWhileImportingAndAtClose: a handle that appends more
// than its merge threshold merges the search index's pending list itself,
// and Close leaves nothing pending; the events stay findable throughout.
// Without the merger the entries would still be pending (far below
// PostgreSQL's own 4 MB limit), which the control handle shows.
func TestMerger_MergesWhileImportingAndAtClose(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		every int
		want  bool // nothing pending after Close
	}{{"bulk", 1, true}, {"below the threshold", mergeEvery, false}} {
		t.Run(tt.name, func(t *testing.T) {
			loc := freshSchema(t)
			db, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: loc})
			if err != nil {
				t.Fatal(err)
			}
			db.merge.every = tt.every
			ws := appendWords(t, db, 4)
			if got := db.merge.bulk(); got != tt.want {
				t.Errorf("bulk() = %v; want %v", got, tt.want)
			}
			evs, err := db.Search(ctx, ws, "word3_49", 10)
			if err != nil || len(evs) != 1 {
				t.Fatalf("Search = %d events, %v; want 1", len(evs), err)
			}
			db.Close()
			if pages := pendingPages(t, loc); (pages == 0) != tt.want {
				t.Errorf("pending pages after Close = %d; want none: %v", pages, tt.want)
			}
		})
	}
}

// TestMerger_RoleWithoutOwnership: a role that may write the ledger but
// does not own its index (a team ledger another role created) is refused
// the merge once; its appends go on as before and Close returns.
func TestMerger_RoleWithoutOwnership(t *testing.T) {
	ctx := context.Background()
	loc := freshSchema(t)
	owner, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	owner.Close()
	schema := mustQuery(t, loc, "search_path")
	role := "merge_" + schema
	withRoles(t, []string{role},
		`CREATE ROLE `+role+` LOGIN PASSWORD 'pw'`,
		`GRANT USAGE ON SCHEMA `+schema+` TO `+role,
		`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA `+schema+` TO `+role,
		`GRANT USAGE ON ALL SEQUENCES IN SCHEMA `+schema+` TO `+role)
	u := asRole(loc, role)
	db, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	db.merge.every = 1
	ws := appendWords(t, db, 3)
	db.Close()
	if !db.merge.refused {
		t.Fatal("the merge of a role that does not own the index was not refused; the test does not test the fallback")
	}
	if pages := pendingPages(t, loc); pages == 0 {
		t.Error("nothing was pending after a refused merge; want the entries left to PostgreSQL's own merge")
	}
	db, err = Open(ctx, ledger.Where{Home: t.TempDir(), Location: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if evs, err := db.Search(ctx, ws, "word2_7", 10); err != nil || len(evs) != 1 {
		t.Fatalf("Search = %d events, %v; want 1", len(evs), err)
	}
}

// withRoles runs stmts (creating roles) as the test server's superuser and
// drops what roles own, then the roles, at the end; it returns that
// superuser's connection.
func withRoles(t *testing.T, roles []string, stmts ...string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, testServer(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, r := range roles {
			admin.Exec(ctx, `DROP OWNED BY `+r)
			admin.Exec(ctx, `DROP ROLE `+r)
		}
		admin.Close(ctx)
	})
	for _, q := range stmts {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return admin
}

// asRole is loc logging in as role (password "pw").
func asRole(loc, role string) *url.URL {
	u, _ := url.Parse(loc)
	u.User = url.UserPassword(role, "pw")
	return u
}

func mustQuery(t *testing.T, loc, key string) string {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Query().Get(key) == "" {
		t.Fatalf("%s has no %s", ledger.HidePassword(loc), key)
	}
	return u.Query().Get(key)
}

// TestMerger_CloseDoesNotWaitForAHungServer: a merge the server never
// finishes is cancelled once Close has waited its bound.
func TestMerger_CloseDoesNotWaitForAHungServer(t *testing.T) {
	db := openTest(t)
	db.merge.every = 1
	db.merge.drain = 300 * time.Millisecond
	db.merge.query = `SELECT pg_sleep(60)`
	appendWords(t, db, 2)
	start := time.Now()
	db.Close()
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("Close took %v with a merge that never ends; want about the drain bound", el)
	}
}

// TestMerger_TeamGroupRole: the team setup of docs/shared-ledger.md (the
// group role owns the ledger, each member's sessions act as the group) may
// merge: members import at the merger's pace.
func TestMerger_TeamGroupRole(t *testing.T) {
	ctx := context.Background()
	loc := freshSchema(t)
	schema := mustQuery(t, loc, "search_path")
	group, member := "grp_"+schema, "mem_"+schema
	admin := withRoles(t, []string{member, group},
		`CREATE ROLE `+group+` NOLOGIN`,
		`CREATE ROLE `+member+` LOGIN PASSWORD 'pw' IN ROLE `+group,
		`ALTER ROLE `+member+` SET role = '`+group+`'`,
		`ALTER SCHEMA `+schema+` OWNER TO `+group)
	u := asRole(loc, member)
	db, err := Open(ctx, ledger.Where{Home: t.TempDir(), Location: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	var owner string
	if err := admin.QueryRow(ctx, `SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = ($1 || '.events_tsv')::regclass`, schema).Scan(&owner); err != nil || owner != group {
		t.Fatalf("the index belongs to %q (%v); want the group %q", owner, err, group)
	}
	db.merge.every = 1
	appendWords(t, db, 3)
	db.Close()
	if db.merge.refused {
		t.Fatal("a member acting as the owning group role was refused the merge")
	}
	if pages := pendingPages(t, loc); pages != 0 {
		t.Errorf("%d pages pending after Close; want none", pages)
	}
}
