//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestPct(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		p    int
		want time.Duration
	}{
		{ms(5), 50, 5 * time.Millisecond},
		{ms(3, 1, 2), 50, 2 * time.Millisecond},
		{ms(4, 3, 2, 1), 50, 2 * time.Millisecond},
		{ms(10, 1, 2, 3, 4, 5, 6, 7, 8, 9), 90, 9 * time.Millisecond},
		{ms(10, 1, 2, 3, 4, 5, 6, 7, 8, 9), 100, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		if got := pct(tt.in, tt.p); got != tt.want {
			t.Errorf("pct(%v, %d) = %v, want %v", tt.in, tt.p, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("pct reordered its input")
		}
	}
}

func TestPairedFields(t *testing.T) {
	managed := []sample{{start: 10, exited: 15, wall: 40}, {start: 12, exited: 20, wall: 50}}
	direct := []sample{{start: 2, exited: 6, wall: 8}, {start: 3, exited: 4, wall: 9}}
	tests := []struct {
		name string
		got  []time.Duration
		want []time.Duration
	}{
		{"start diff", diff(managed, direct, startOf), []time.Duration{8, 9}},
		{"wall diff", diff(managed, direct, wallOf), []time.Duration{32, 41}},
		{"lifetime", field(managed, lifeOf), []time.Duration{5, 8}},
		{"after exit", field(managed, afterOf), []time.Duration{25, 30}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestSandboxEnv(t *testing.T) {
	base := []string{"PATH=/usr/bin", "HOME=/root", "AI_MEMORY_RUN_ID=r", "AI_MEMORY_HOME=/x", "FAKE_EXIT=3",
		"CLAUDE_CONFIG_DIR=/c", "CODEX_HOME=/d", "XDG_DATA_HOME=/e", "TERM=xterm"}
	got := sandboxEnv(base, map[string]string{"HOME": "/sb/home", "PATH": "/sb/bin:/usr/bin"})
	slices.Sort(got)
	want := []string{"HOME=/sb/home", "PATH=/sb/bin:/usr/bin", "TERM=xterm"}
	if !slices.Equal(got, want) {
		t.Fatalf("sandboxEnv = %q, want %q", got, want)
	}
}

func TestReadStamp(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		want          time.Duration
		wantErr       bool
	}{
		{"ok", "123456789\n", 123456789, false},
		{"garbage", "12x", 0, true},
		{"missing", "", 0, true},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name)
		if tt.content != "" {
			if err := os.WriteFile(p, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		got, err := readStamp(p)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s: readStamp = %v, %v; want %v, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestWriteStampMonotonic checks that a stamp written later reads larger:
// start and exit stamps are compared with the driver's own clock.
func TestWriteStampMonotonic(t *testing.T) {
	p := filepath.Join(t.TempDir(), "stamp")
	before := monotonic()
	if err := writeStamp(p); err != nil {
		t.Fatal(err)
	}
	got, err := readStamp(p)
	if err != nil || got < before || got > monotonic() {
		t.Fatalf("stamp %v outside [%v, now] (err %v)", got, before, err)
	}
	if err := writeStamp(""); err != nil {
		t.Fatalf("writeStamp without a path: %v", err)
	}
}
