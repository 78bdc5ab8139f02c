package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/repo"
)

// benchCheckout is a checkout with commits and a machine sharing a ledger.
func benchCheckout(b *testing.B, commits int) (machineEnv, string) {
	b.Helper()
	root := realDir(b, b.TempDir())
	dir := filepath.Join(root, "app")
	os.MkdirAll(dir, 0o700)
	gitIn(b, dir, "init", "-q")
	// git fast-import makes the history in one process.
	var stream strings.Builder
	for i := 1; i <= commits; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&stream, "from :%d\n", i-1)
		}
		fmt.Fprintf(&stream, "M 644 inline f.txt\ndata %d\n%d\n\n", len(fmt.Sprint(i))+1, i)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git fast-import: %v\n%s", err, out)
	}
	gitIn(b, dir, "checkout", "-q", "-f", "main")
	return newMachine(b, root, "m1", filepath.Join(root, "ledger.db")), dir
}

// BenchmarkResolveScope_Cached is the identity cost of every launch after
// the first in a checkout: repo.Identify, the mapping file, one stat and
// the (empty) read for path-keyed workstreams left to move.
func BenchmarkResolveScope_Cached(b *testing.B) {
	m, dir := benchCheckout(b, 3)
	resolve(b, m, dir)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, err := repo.Identify(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ResolveScope(ctx, m.db, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveScope_First is the first launch in a checkout: the root
// commit from git (once per checkout), the mapping written.
func BenchmarkResolveScope_First(b *testing.B) {
	for _, commits := range []int{3, 20000} {
		b.Run(fmt.Sprintf("%dcommits", commits), func(b *testing.B) {
			m, dir := benchCheckout(b, commits)
			id, err := repo.Identify(dir)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				os.RemoveAll(filepath.Join(m.home, checkoutsDir))
				if _, err := ResolveScope(ctx, m.db, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIdentify is repo.Identify alone: the path-keyed identity's cost.
func BenchmarkIdentify(b *testing.B) {
	_, dir := benchCheckout(b, 1)
	for i := 0; i < b.N; i++ {
		if _, err := repo.Identify(dir); err != nil {
			b.Fatal(err)
		}
	}
}
