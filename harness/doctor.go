package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Level is how serious one finding of `ai-memory doctor` is. Only
// LevelFail makes doctor exit non-zero: a warning is something the user
// may want to know (a newer CLI than we tested), information is a plain
// fact (a harness that is not installed).
type Level int

// Levels, from least to most serious.
const (
	LevelOK Level = iota
	LevelInfo
	LevelWarn
	LevelFail
)

// String returns "ok", "info", "warn" or "fail".
func (l Level) String() string {
	switch l {
	case LevelOK:
		return "ok"
	case LevelInfo:
		return "info"
	case LevelWarn:
		return "warn"
	}
	return "fail"
}

// Finding is one result of a harness's own setup check ([Descriptor.Check]).
type Finding struct {
	Level Level
	// Check is a short name for what was checked ("delivery").
	Check string
	// Detail is one line: what was found and, when it is a problem, what to
	// do about it.
	Detail string
}

// CheckEnv is what a setup check may look at: the user's home, environment
// and project, as the launcher would see them for a run started here.
type CheckEnv struct {
	Home string
	// Getenv reads the environment a run would pass the agent.
	Getenv func(string) string
	// Project is the project root (the git worktree top level, else Cwd);
	// Cwd the directory doctor runs in.
	Project, Cwd string
	// Executable is the resolved CLI, "" when it is not installed; Version
	// its parsed version, "" when unknown.
	Executable, Version string
	// ReadFile reads a user's file (nil means os.ReadFile); tests replace it.
	ReadFile func(string) ([]byte, error)
}

// readFile reads path through ReadFile or the file system.
func (e CheckEnv) readFile(path string) ([]byte, error) {
	if e.ReadFile != nil {
		return e.ReadFile(path)
	}
	return os.ReadFile(path)
}

// getenv reads key, "" when Getenv is nil.
func (e CheckEnv) getenv(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// versionRE finds the first version-looking token: digits.digits, an
// optional third part and pre-release suffix, after a non-word character
// or "v". "2.1.332 (Claude Code)", "codex-cli 0.171.0" and "v1.6.0" all
// give their number.
var versionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^0-9A-Za-z.])v?(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)`)
})

// ParseVersion returns the first version-looking token of a CLI's
// --version output, "" when there is none.
func ParseVersion(out string) string {
	m := versionRE().FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// CompareVersions compares dotted versions numerically, part by part (a
// missing part is 0); a pre-release ("1.2.0-beta") sorts before its
// release. It returns -1, 0 or +1.
func CompareVersions(a, b string) int {
	an, apre, _ := strings.Cut(a, "-")
	bn, bpre, _ := strings.Cut(b, "-")
	as, bs := strings.Split(an, "."), strings.Split(bn, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		x, y := versionPart(as, i), versionPart(bs, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case apre == bpre:
		return 0
	case apre == "":
		return 1
	case bpre == "":
		return -1
	}
	return strings.Compare(apre, bpre)
}

func versionPart(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, _ := strconv.Atoi(parts[i])
	return n
}

// LastTested is the newest version in Tested, "" when the list is empty.
func (d Descriptor) LastTested() string {
	if len(d.Tested) == 0 {
		return ""
	}
	return d.Tested[len(d.Tested)-1]
}

// versionArgs is how the CLI is asked for its version.
func (d Descriptor) versionArgs() []string {
	if len(d.VersionArgs) > 0 {
		return d.VersionArgs
	}
	return []string{"--version"}
}

// ErrNoVersion is returned by [Descriptor.ProbeVersion] when the CLI ran
// but printed nothing that looks like a version.
var ErrNoVersion = errors.New("no version in its output")

// ProbeVersion runs the CLI at exe with its version arguments, stdin
// empty, for at most timeout, and returns the parsed version and the first
// line of its output. A CLI that hangs (waits for a network, a prompt) is
// killed at the deadline, and its children's pipes are not waited for
// beyond it, so the probe cannot hang its caller.
func (d Descriptor) ProbeVersion(ctx context.Context, exe string, timeout time.Duration) (version, line string, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, d.versionArgs()...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	// After the CLI exits, its output is read to the end for up to this
	// long; only a child that keeps the pipe open makes it matter. 100 ms
	// was too short on a loaded machine: the reader was not scheduled in
	// time, the pipe was closed with the version unread, and the check
	// said "version unknown" (CI under go test -race, 2 cores).
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	text := strings.TrimSpace(out.String())
	line, _, _ = strings.Cut(text, "\n")
	if ctx.Err() != nil {
		return "", line, fmt.Errorf("`%s %s` did not answer within %s", exe, strings.Join(d.versionArgs(), " "), timeout)
	}
	if v := ParseVersion(text); v != "" {
		return v, line, nil
	}
	if runErr != nil {
		return "", line, fmt.Errorf("`%s %s`: %w", exe, strings.Join(d.versionArgs(), " "), runErr)
	}
	return "", line, ErrNoVersion
}

// hasLevel reports whether any finding has level l.
func hasLevel(fs []Finding, l Level) bool {
	for _, f := range fs {
		if f.Level == l {
			return true
		}
	}
	return false
}
