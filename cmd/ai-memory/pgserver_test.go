//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { scriptCmds["pgserver"] = cmdPgServer }

// cmdPgServer gives a script a PostgreSQL server of its own
// (scripts/pg-cluster.sh in a directory of its own), which it may stop and
// start mid-run without touching the server the other scripts share:
//
//	pgserver start    start it (initdb the first time) and point
//	                  AI_MEMORY_LEDGER at it; PGCLUSTER and
//	                  AI_MEMORY_PG_DIR let a shell step stop it
//	                  (`exec sh -c '... "$PGCLUSTER" halt' &`)
//	pgserver halt     stop it (pg_ctl stop), keeping its data
//	pgserver resume   start it again on the same port
//
// It is removed when the script ends.
func cmdPgServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pgserver start|halt|resume")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "pg-cluster.sh"))
	ts.Check(err)
	dir := ts.Getenv("AI_MEMORY_PG_DIR")
	switch args[0] {
	case "start":
		if dir != "" {
			ts.Fatalf("pgserver start: this script's server is already started (%s)", dir)
		}
		// Not under $WORK: the server runs as the postgres user when we are
		// root, and $WORK's parents are private to us.
		dir, err = os.MkdirTemp("", "aim-pgserver-")
		ts.Check(err)
		ts.Setenv("AI_MEMORY_PG_DIR", dir)
		ts.Setenv("PGCLUSTER", script)
		ts.Defer(func() { pgCluster(script, dir, "stop") })
		if out, err := pgCluster(script, dir, "start"); err != nil {
			ts.Fatalf("pgserver start: %v\n%s", err, out)
		}
		url, err := os.ReadFile(filepath.Join(dir, "url"))
		ts.Check(err)
		ts.Setenv("AI_MEMORY_LEDGER", strings.TrimSpace(string(url)))
	case "halt", "resume":
		if dir == "" {
			ts.Fatalf("pgserver %s: no pgserver start before", args[0])
		}
		if out, err := pgCluster(script, dir, args[0]); err != nil {
			ts.Fatalf("pgserver %s: %v\n%s", args[0], err, out)
		}
	default:
		ts.Fatalf("usage: pgserver start|halt|resume")
	}
}

// pgCluster runs scripts/pg-cluster.sh CMD on the cluster in dir.
func pgCluster(script, dir, cmd string) ([]byte, error) {
	c := exec.Command("bash", script, cmd)
	c.Env = append(os.Environ(), "AI_MEMORY_PG_DIR="+dir)
	return c.CombinedOutput()
}
