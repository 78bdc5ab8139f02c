package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// maxInitBytes bounds what our packages allocate while initialising. Every
// ai-memory process pays for it before main runs, and `workstream-search`
// must answer in a few milliseconds; a package-level regexp.MustCompile
// alone allocates 5-20 KiB (the eleven such patterns came to 170 KiB and
// ~1.5 ms), so patterns are compiled on first use (sync.OnceValue) instead.
const maxInitBytes = 64 << 10

// TestPackageInitIsCheap runs this test binary with GODEBUG=inittrace=1,
// which reports every package's init, and sums what our non-test packages
// allocate there.
func TestPackageInitIsCheap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run %s with inittrace: %v\n%s", os.Args[0], err, stderr.String())
	}
	total, seen := 0, 0
	var report []string
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		pkg, bytes, ok := initLine(sc.Text())
		if !ok || !strings.HasPrefix(pkg, "github.com/ai-memory/ai-memory/") || strings.Contains(pkg, "test") || strings.HasSuffix(pkg, "/cmd/ai-memory") {
			continue
		}
		seen++
		total += bytes
		report = append(report, sc.Text())
	}
	if seen == 0 {
		t.Fatalf("inittrace reported none of our packages:\n%s", stderr.String())
	}
	if total > maxInitBytes {
		t.Errorf("our packages allocate %d bytes at init (limit %d); compile patterns and build tables on first use:\n%s",
			total, maxInitBytes, strings.Join(report, "\n"))
	}
}

// initLine parses "init <pkg> @1.2 ms, 0.1 ms clock, 1234 bytes, 5 allocs".
func initLine(s string) (pkg string, bytes int, ok bool) {
	f := strings.Fields(s)
	if len(f) < 11 || f[0] != "init" || f[8] != "bytes," {
		return "", 0, false
	}
	n, err := strconv.Atoi(f[7])
	return f[1], n, err == nil
}
