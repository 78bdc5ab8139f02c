package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeDriver records which backend a location picked.
type fakeDriver struct{ name string }

var errPicked = errors.New("picked")

func (d fakeDriver) Open(context.Context, Where) (Ledger, error) {
	return nil, errors.Join(errPicked, errors.New(d.name))
}
func (d fakeDriver) OpenForCheck(ctx context.Context, w Where) (Ledger, error) { return d.Open(ctx, w) }
func (d fakeDriver) Exists(context.Context, Where) (bool, string, error) {
	return true, d.name, nil
}

func TestOpenPicksTheBackendByScheme(t *testing.T) {
	Register("faketest", fakeDriver{"fake"})
	if !strings.Contains(strings.Join(Schemes(), ","), "faketest") {
		t.Fatalf("Schemes() = %v; want faketest listed", Schemes())
	}
	ctx := context.Background()
	tests := []struct{ location, want string }{
		{"faketest://host/db", "fake"},
		{"nosuch://x", `no "nosuch" backend in this ai-memory`},
		{"", `no "sqlite" backend`}, // this package alone registers no SQLite
		{"/plain/path", `no "sqlite" backend`},
	}
	for _, tt := range tests {
		_, err := Open(ctx, Where{Home: t.TempDir(), Location: tt.location})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v; want %q", tt.location, err, tt.want)
		}
	}
	if ok, desc, err := Exists(ctx, Where{Location: "faketest://h"}); !ok || desc != "fake" || err != nil {
		t.Errorf("Exists = %v %q %v", ok, desc, err)
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	Register("faketwice", fakeDriver{})
	defer func() {
		if recover() == nil {
			t.Fatal("a second Register of one scheme did not panic")
		}
	}()
	Register("faketwice", fakeDriver{})
}
