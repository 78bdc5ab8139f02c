package webui_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/ai-memory/ai-memory/internal/timelinefix"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/webui"
)

const token = "t0k3n"

type fixture struct {
	srv  *httptest.Server
	db   ledger.Ledger
	ws   ledger.Workstream
	runs []ledger.Run
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	return newFixtureWith(t, func(ctx context.Context, db ledger.Ledger) (ledger.Workstream, error) {
		return timelinefix.Build(ctx, db, "parser", timelinefix.ThreeRuns())
	})
}

// newFixtureWith serves a ledger holding the workstream build records.
func newFixtureWith(t *testing.T, build func(context.Context, ledger.Ledger) (ledger.Workstream, error)) fixture {
	t.Helper()
	ctx := context.Background()
	db, err := ledger.Open(ctx, testledger.Where(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ws, err := build(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := db.Runs(ctx, ws.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	s, err := webui.New(db, webui.Options{Token: token, Hosts: webui.AllowedHosts(srv.Listener.Addr()), Scope: timelinefix.Scope})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = s.Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	return fixture{srv: srv, db: db, ws: ws, runs: runs}
}

// get requests path with the token cookie (unless noCookie) and the Host.
func (f fixture) get(t *testing.T, method, path, host string, cookie bool) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if cookie {
		req.AddCookie(&http.Cookie{Name: webui.CookieName, Value: token})
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestGuard(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, method, path, host string
		cookie                   bool
		code                     int
	}{
		{"no token", "GET", "/", "", false, http.StatusForbidden},
		{"wrong token", "GET", "/?token=nope", "", false, http.StatusForbidden},
		{"wrong cookie", "GET", "/w/" + f.ws.ID, "", false, http.StatusForbidden},
		{"token sets cookie", "GET", "/?token=" + token, "", false, http.StatusSeeOther},
		{"cookie", "GET", "/", "", true, http.StatusOK},
		{"rebinding host", "GET", "/", "evil.example:80", true, http.StatusMisdirectedRequest},
		{"rebinding host with token", "GET", "/?token=" + token, "evil.example", false, http.StatusMisdirectedRequest},
		{"localhost alias", "GET", "/", "localhost:" + port(f.srv.URL), true, http.StatusOK},
		{"post", "POST", "/", "", true, http.StatusMethodNotAllowed},
		{"delete", "DELETE", "/w/" + f.ws.ID, "", true, http.StatusMethodNotAllowed},
		{"unknown workstream", "GET", "/w/nope", "", true, http.StatusNotFound},
		{"unknown session", "GET", "/w/" + f.ws.ID + "/s/nope", "", true, http.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := f.get(t, c.method, c.path, c.host, c.cookie)
			if resp.StatusCode != c.code {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.code, body)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("CSP %q", csp)
			}
			if c.code == http.StatusForbidden && strings.Contains(body, "parser") {
				t.Errorf("refused response leaks content: %s", body)
			}
		})
	}
	resp, _ := f.get(t, "GET", "/?token="+token, "", false)
	ck := resp.Header.Get("Set-Cookie")
	if !strings.Contains(ck, webui.CookieName+"="+token) || !strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Strict") {
		t.Errorf("cookie %q", ck)
	}
	if loc := resp.Header.Get("Location"); strings.Contains(loc, token) {
		t.Errorf("redirect keeps the token: %s", loc)
	}
}

func port(u string) string { p, _ := url.Parse(u); return p.Port() }

// Every page that shows the malicious transcript shows it as text.
func TestMaliciousTranscriptIsInert(t *testing.T) {
	f := newFixture(t)
	claude := f.runs[len(f.runs)-1].ID // Runs lists newest first
	for _, path := range []string{"/w/" + f.ws.ID, "/w/" + f.ws.ID + "/s/" + claude, "/w/" + f.ws.ID + "/search?q=design", "/w/" + f.ws.ID + "/tail?after=0"} {
		_, body := f.get(t, "GET", path, "", true)
		for _, bad := range []string{"<script>window", "<img src=x", "onerror=\"", "\x1b"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: contains %q", path, bad)
			}
		}
		if !strings.Contains(body, "&lt;script&gt;window.pwned=1&lt;/script&gt;") || !strings.Contains(body, "␛]0;pwned␇") {
			t.Errorf("%s: the text is not shown escaped", path)
		}
	}
}

func TestPages(t *testing.T) {
	f := newFixture(t)
	claude, codex := f.runs[2].ID, f.runs[1].ID
	cases := []struct {
		path string
		want []string
	}{
		{"/", []string{`class="workstream" data-id="` + f.ws.ID + `"`, `<td class="num sessions">3</td>`, `<td class="num events">`}},
		{"/?all=1", []string{"/src/fix", "of every checkout"}},
		{"/w/" + f.ws.ID, []string{`data-harness="claude"`, "Received the handoff of events #1–#7 (7 event(s))", "confirmed", "<details class=\"event tool-call\"", `data-live="/w/` + f.ws.ID + `/tail"`}},
		{"/w/" + f.ws.ID + "/s/" + claude, []string{`<ul id="files-edited"><li><code>parser.go</code>`, `<ol id="commands"><li><code>go test ./...</code>`, "<code>lexer.go</code>", "<code>go.mod</code>", `id="next"`, "one test fails"}},
		{"/w/" + f.ws.ID + "/s/" + codex, []string{"go build ./...", `id="prev"`, `id="next"`}},
		{"/w/" + f.ws.ID + "/search?q=parser", []string{"<mark>parser</mark>", `class="hit"`}},
		{"/w/" + f.ws.ID + "/tail?after=11", []string{`data-seq="12"`}},
	}
	for _, c := range cases {
		resp, body := f.get(t, "GET", c.path, "", true)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.path, resp.StatusCode, body)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: missing %q", c.path, w)
			}
		}
	}
	resp, body := f.get(t, "GET", "/w/"+f.ws.ID+"/tail?after=11", "", true)
	if resp.Header.Get("X-Last-Sequence") != "12" || strings.Contains(body, "block-head") {
		t.Errorf("tail continuing a session: last %q, header repeated: %v", resp.Header.Get("X-Last-Sequence"), strings.Contains(body, "block-head"))
	}
}

// The page of a session longer than history.MaxSummaryEvents says which
// events its summary leaves out and links the timeline at them.
func TestSessionPagePartial(t *testing.T) {
	n := history.MaxSummaryEvents + 400
	f := newFixtureWith(t, func(ctx context.Context, db ledger.Ledger) (ledger.Workstream, error) {
		return timelinefix.BuildBig(ctx, db, "big", n, 1)
	})
	resp, body := f.get(t, "GET", "/w/"+f.ws.ID+"/s/"+f.runs[0].ID, "", true)
	half := history.MaxSummaryEvents / 2
	want := fmt.Sprintf(`leaves out events #%d–#%d, in the middle; <a href="/w/%s?after=%d">the timeline</a>`, half+1, n-half, f.ws.ID, half)
	if resp.StatusCode != 200 || !strings.Contains(body, want) {
		t.Errorf("status %d; body lacks %q", resp.StatusCode, want)
	}
}

// The live page learns from every tail poll whether its session list
// changed, and fetches the list again only then.
func TestLiveSessionList(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, page := f.get(t, "GET", "/w/"+f.ws.ID, "", true)
	if !strings.Contains(page, `id="session-list" data-live="/w/`+f.ws.ID+`/sessions" data-version="3-`) {
		t.Fatalf("timeline lacks the live session list:\n%s", page)
	}
	version := func() string {
		resp, _ := f.get(t, "GET", "/w/"+f.ws.ID+"/tail?after=12", "", true)
		return resp.Header.Get("X-Sessions-Version")
	}
	v0 := version()
	if v0 == "" || version() != v0 {
		t.Fatalf("version %q not stable", v0)
	}
	run, _, err := f.db.AcquireLease(ctx, f.ws.ID, "codex", ledger.CurrentOwner())
	if err != nil {
		t.Fatal(err)
	}
	v1 := version()
	if v1 == v0 || !strings.HasPrefix(v1, "4-") {
		t.Errorf("a new run: version %q -> %q", v0, v1)
	}
	ev := timelinefix.Ev("codex", "cx-live", 99, ledger.KindMessage, "user", "LIVE SESSION PROMPT", nil)
	if _, err := f.db.Append(ctx, ledger.Batch{WorkstreamID: f.ws.ID, RunID: run.ID, Events: []ledger.EventInput{ev}}); err != nil {
		t.Fatal(err)
	}
	if v2 := version(); v2 == v1 {
		t.Errorf("an event: version stayed %q", v2)
	}
	resp, frag := f.get(t, "GET", "/w/"+f.ws.ID+"/sessions", "", true)
	if resp.StatusCode != 200 || strings.Count(frag, `<li class="session"`) != 4 || !strings.Contains(frag, "LIVE SESSION PROMPT") ||
		resp.Header.Get("X-Sessions-Version") != version() || strings.Contains(frag, "<html") {
		t.Errorf("sessions fragment (%d, %s):\n%s", resp.StatusCode, resp.Header.Get("X-Sessions-Version"), frag)
	}
}

// A ledger.db replaced on disk (moved aside, then `ledger rebuild` into a
// new file) is reopened on the next request, without restarting the ui.
func TestReopenReplacedLedger(t *testing.T) {
	if testledger.OnPostgres() {
		t.Skip("replaces the SQLite ledger file on disk; a PostgreSQL ledger has no file")
	}
	ctx := context.Background()
	home := t.TempDir()
	db, err := ledger.Open(ctx, testledger.Where(t, home))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := timelinefix.Build(ctx, db, "parser", timelinefix.ThreeRuns())
	if err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64 // seconds; every request is 2 s later
	s, err := webui.New(db, webui.Options{Token: token, Hosts: []string{"ui.test"},
		Now:    func() time.Time { return time.Unix(clock.Add(2), 0) },
		Reopen: func() (ledger.Ledger, error) { return ledger.Open(ctx, testledger.Where(t, home)) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.DB().Close() })
	get := func() string {
		req := httptest.NewRequest("GET", "/w/"+ws.ID, nil)
		req.Host = "ui.test"
		req.AddCookie(&http.Cookie{Name: webui.CookieName, Value: token})
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		return w.Body.String()
	}
	if body := get(); !strings.Contains(body, "design the parser") {
		t.Fatalf("before: %s", body)
	}
	aside := t.TempDir()
	for _, f := range []string{"ledger.db", "ledger.db-wal", "ledger.db-shm"} {
		os.Rename(filepath.Join(home, f), filepath.Join(aside, f))
	}
	fresh, err := ledger.Open(ctx, testledger.Where(t, home))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	run, _, err := fresh.AcquireLease(ctx, ws.ID, "codex", ledger.CurrentOwner())
	if err != nil {
		t.Fatal(err)
	}
	ev := timelinefix.Ev("codex", "cx-new", 50, ledger.KindMessage, "user", "AFTER THE REBUILD", nil)
	if _, err := fresh.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: run.ID, Events: []ledger.EventInput{ev}}); err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	if body := get(); !strings.Contains(body, "AFTER THE REBUILD") || !strings.Contains(body, "design the parser") {
		t.Errorf("after the rebuild the ui still reads the old file:\n%s", body)
	}
	if s.DB() == db {
		t.Error("DB() is still the first ledger")
	}
}
