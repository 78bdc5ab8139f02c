package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkAppendToNotification measures one append -> notification round
// trip through inotify, the reader, the worker and a 1ms debounce window.
func BenchmarkAppendToNotification(b *testing.B) {
	root := b.TempDir()
	f, err := os.Create(filepath.Join(root, "s.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w, err := New([]string{root}, Options{Debounce: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for b.Loop() {
		if _, err := f.WriteString("{}\n"); err != nil {
			b.Fatal(err)
		}
		<-w.Changes()
	}
}

// BenchmarkNewTree measures New on a Codex-like tree: 3 years x 12 months x
// 30 days, one file per day (about 1,100 directories to watch).
func BenchmarkNewTree(b *testing.B) {
	root := b.TempDir()
	for y := range 3 {
		for m := range 12 {
			for d := range 30 {
				dir := filepath.Join(root, string(rune('a'+y)), string(rune('a'+m)), string(rune('a'+d)))
				if err := os.MkdirAll(dir, 0o700); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "rollout.jsonl"), []byte("{}\n"), 0o600); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for _, mode := range []struct {
		name string
		opt  Options
	}{{"fsnotify", Options{}}, {"polling-snapshot", Options{ForcePoll: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				w, err := New([]string{root}, mode.opt)
				if err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
		})
	}
}
