package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/internal/testledger"
	"github.com/chromedp/chromedp"
)

// The browser test drives Debian's headless chromium against `ai-memory ui`
// over a ledger filled by the fake harnesses (claude -> codex -> claude).
// Plain `go test` skips it when chromium is absent; `make browser-test`
// (part of `make test`) installs chromium and sets AI_MEMORY_BROWSER_TEST=1,
// which makes it required. Screenshots go to $AI_MEMORY_SCREENSHOTS (else a
// temp dir, logged).

const maliciousPrompt = `design the parser RUN_TOOL <script>window.pwned=1</script><img src=x onerror="window.pwned=2"> ` + "\x1b]0;pwned\x07\x1b[31mred"

func TestBrowserUI(t *testing.T) {
	chrome := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	work := t.TempDir()
	env := browserEnv(t, work)
	repoDir := filepath.Join(work, "repo")
	mustRun(t, env, work, "git", "init", "-q", repoDir)
	mustRun(t, env, repoDir, "ai-memory", "run", "claude", "-p", maliciousPrompt)
	mustRun(t, env, repoDir, "ai-memory", "run", "codex", "exec", "--skip-git-repo-check", "implement it RUN_TOOL EDIT_TOOL")
	mustRun(t, env, repoDir, "ai-memory", "run", "claude", "-p", "review the parser")

	base, token := startUI(t, env, repoDir)
	shots := screenshotDir(t)
	ctx := newBrowser(t, chrome)

	// The token in the URL becomes a cookie; the list shows this checkout's workstream.
	do(t, ctx, chromedp.Navigate(base+"/?token="+token), chromedp.WaitVisible(chromedp.CSS("#workstreams")))
	wsRows := eval[int](t, ctx, `document.querySelectorAll("tr.workstream").length`)
	wsHref := eval[string](t, ctx, `document.querySelector("tr.workstream a").getAttribute("href")`)
	if wsRows != 1 || !strings.HasPrefix(wsHref, "/w/") {
		t.Fatalf("workstream list: %d rows, link %q", wsRows, wsHref)
	}
	if loc := eval[string](t, ctx, `location.href`); strings.Contains(loc, token) {
		t.Errorf("token left in the address bar: %s", loc)
	}
	screenshot(t, ctx, shots, "workstreams.png")

	// Timeline: sessions in order with badges; the codex launch shows its handoff.
	do(t, ctx, chromedp.Navigate(base+wsHref), chromedp.WaitVisible(chromedp.CSS("#sessions")))
	harnesses := eval[[]string](t, ctx, `[...document.querySelectorAll("#sessions li.session")].map(li => li.dataset.harness)`)
	badges := eval[[]string](t, ctx, `[...document.querySelectorAll("#sessions li.session .badge")].map(b => b.textContent)`)
	codexHandoff := eval[string](t, ctx, `document.querySelector("#sessions li.session:nth-child(2) .handoff").textContent`)
	if want := []string{"claude", "codex", "claude"}; fmt.Sprint(harnesses) != fmt.Sprint(want) || fmt.Sprint(badges) != fmt.Sprint(want) {
		t.Fatalf("timeline order %v, badges %v; want %v", harnesses, badges, want)
	}
	if !regexp.MustCompile(`Received the handoff of events #1–#\d+ \(\d+ event\(s\)\), confirmed`).MatchString(codexHandoff) {
		t.Errorf("codex handoff: %q", codexHandoff)
	}
	if folded := eval[bool](t, ctx, `[...document.querySelectorAll("details.tool-call")].every(d => !d.open)`); !folded {
		t.Errorf("tool calls are not folded by default")
	}
	assertInert(t, ctx, "timeline")
	screenshot(t, ctx, shots, "timeline.png")
	if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil { // the viewport, for README
		os.WriteFile(filepath.Join(shots, "timeline-view.png"), png, 0o644)
	}

	// Session page of the codex run: files edited and commands run.
	codexHref := eval[string](t, ctx, `document.querySelector("#sessions li.session:nth-child(2) a.title").getAttribute("href")`)
	do(t, ctx, chromedp.Navigate(base+codexHref), chromedp.WaitVisible(chromedp.CSS("#title")))
	title := eval[string](t, ctx, `document.querySelector("#title").textContent`)
	edited := eval[string](t, ctx, `document.querySelector("#files-edited").textContent`)
	commands := eval[string](t, ctx, `document.querySelector("#commands").textContent`)
	if !strings.Contains(title, "implement it") || !strings.Contains(edited, "parser.go") || !strings.Contains(commands, "echo hello") {
		t.Errorf("codex session page: title %q, edited %q, commands %q", title, edited, commands)
	}
	screenshot(t, ctx, shots, "session.png")

	// Search highlights the matches.
	do(t, ctx, chromedp.Navigate(base+wsHref+"/search?q=parser"), chromedp.WaitVisible(chromedp.CSS("#hits")))
	marks := eval[[]string](t, ctx, `[...document.querySelectorAll("#hits mark")].map(m => m.textContent.toLowerCase())`)
	if len(marks) == 0 || marks[0] != "parser" {
		t.Errorf("search marks: %v", marks)
	}
	assertInert(t, ctx, "search")
	screenshot(t, ctx, shots, "search.png")

	// Live: a run importing while the timeline is open appears without reload.
	do(t, ctx, chromedp.Navigate(base+wsHref), chromedp.WaitVisible(chromedp.CSS("#events")))
	eval[string](t, ctx, `window.__marker = "same page"`)
	live := exec.Command("ai-memory", "run", "claude", "-p", "LIVEMARK streaming RUN_TOOL")
	live.Dir, live.Env = repoDir, append(env, "FAKE_SLOW=1", "FAKE_SLEEP=1500ms")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- live.Wait() }()
	waitCtx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Do(waitCtx, chromedp.WaitVisible(`//div[@id="events"]//pre[contains(., "LIVEMARK")]`)); err != nil {
		t.Fatalf("live update did not appear: %v", err)
	}
	// The session list follows: the new session appears in it, no reload.
	if err := chromedp.Do(waitCtx, chromedp.WaitVisible(`//ol[@id="sessions"]//a[contains(., "LIVEMARK")]`)); err != nil {
		t.Fatalf("the live session did not appear in the session list: %v", err)
	}
	select {
	case err := <-exited:
		t.Errorf("the run had already finished (%v) when the update appeared: not a live update", err)
	default:
	}
	if marker := eval[string](t, ctx, `window.__marker`); marker != "same page" {
		t.Errorf("the page was reloaded (marker %q)", marker)
	}
	screenshot(t, ctx, shots, "live.png")
	if err := <-exited; err != nil {
		t.Errorf("live run: %v", err)
	}

	// Refused: no token, wrong Host.
	for _, c := range []struct {
		name, host string
		code       int
	}{{"no token", "", http.StatusForbidden}, {"wrong host", "rebind.example", http.StatusMisdirectedRequest}} {
		req, _ := http.NewRequest("GET", base+wsHref, nil)
		if c.host != "" {
			req.Host = c.host
			req.AddCookie(&http.Cookie{Name: "ai_memory_token", Value: token})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.code)
		}
	}
}

// assertInert checks the malicious prompt is shown as text and did nothing.
func assertInert(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	pwned := eval[bool](t, ctx, `typeof window.pwned !== "undefined"`)
	imgs := eval[int](t, ctx, `document.querySelectorAll("main img, main script").length`)
	text := eval[string](t, ctx, `document.querySelector("main").innerText`)
	if pwned || imgs != 0 {
		t.Errorf("%s: injected markup ran (pwned %v, %d img/script elements)", page, pwned, imgs)
	}
	if !strings.Contains(text, `<script>window.pwned=1</script><img src=x onerror="window.pwned=2">`) || !strings.Contains(text, "␛]0;pwned␇␛[31mred") {
		t.Errorf("%s: the transcript text is not shown verbatim", page)
	}
}

func findChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("AI_MEMORY_BROWSER_TEST") == "1" {
		t.Fatal("AI_MEMORY_BROWSER_TEST=1 but no chromium on PATH; install it with: apt-get install chromium")
	}
	t.Skip("chromium not installed (make browser-test installs it)")
	return ""
}

func newBrowser(t *testing.T, chrome string) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil { // start the browser without a timeout
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// do runs steps with a timeout (the browser was started by newBrowser).
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("browser: evaluate %s: %v", expr, err)
	}
	return v
}

func screenshotDir(t *testing.T) string {
	dir := os.Getenv("AI_MEMORY_SCREENSHOTS")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "ai-memory-ui-shots-"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// browserEnv is the environment of setupScript for a plain test.
func browserEnv(t *testing.T, work string) []string {
	home := filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "AI_MEMORY_HOME=" + filepath.Join(work, "data"),
		"AI_MEMORY_LEDGER=" + testledger.Where(t, filepath.Join(work, "data")).Location,
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"FAKE_HARNESS_LOG=" + filepath.Join(work, "fake.log"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	return env
}

// startUI runs `ai-memory ui` and returns its base URL and token.
func startUI(t *testing.T, env []string, dir string) (string, string) {
	cmd := exec.Command("ai-memory", "ui")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the ui URL: %v", err)
	}
	raw, ok := strings.CutPrefix(strings.TrimSpace(line), "ai-memory ui: ")
	u, perr := url.Parse(raw)
	if !ok || perr != nil || u.Query().Get("token") == "" || !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Fatalf("ui printed %q", line)
	}
	return "http://" + u.Host, u.Query().Get("token")
}
