package ledger

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestHidePassword(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://ai:s3cret@db.example:5432/mem?sslmode=verify-full", "postgres://ai:***@db.example:5432/mem?sslmode=verify-full"},
		{"postgres://ai@db/mem", "postgres://ai@db/mem"},
		{"postgres://:only@db/mem", "postgres://:***@db/mem"},
		{"postgres://ai:p%40ss@db/mem", "postgres://ai:***@db/mem"},
		{"postgres://db/mem?user=ai&password=s3cret&sslmode=require", "postgres://db/mem?user=ai&password=***&sslmode=require"},
		{"host=db user=ai password=s3cret dbname=mem", "host=db user=ai password=*** dbname=mem"},
		{"host=db password = 'with space' dbname=mem", "host=db password = *** dbname=mem"},
		{"host=db sslpassword=k3y", "host=db sslpassword=***"},
		{"/srv/ledger.db", "/srv/ledger.db"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := HidePassword(tt.in); got != tt.want {
			t.Errorf("HidePassword(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestScrubError(t *testing.T) {
	loc := "postgres://ai:p%40ss-w0rd@db/mem"
	base := fmt.Errorf("connect: %w", ErrUnavailable)
	tests := []struct{ name, msg string }{
		{"location quoted", "failed to connect to " + loc},
		{"password alone, escaped", "auth failed for password p%40ss-w0rd"},
		{"password alone, unescaped", "auth failed for password p@ss-w0rd"},
		{"another url", "dial postgres://x:other@h failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ScrubError(fmt.Errorf("%s: %w", tt.msg, base), loc)
			for _, secret := range []string{"p%40ss-w0rd", "p@ss-w0rd", "other"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("%q still holds %q", err, secret)
				}
			}
			if !errors.Is(err, ErrUnavailable) {
				t.Error("scrubbing lost the error chain")
			}
		})
	}
	if ScrubError(nil, loc) != nil {
		t.Error("ScrubError(nil) is not nil")
	}
	plain := errors.New("nothing secret")
	if ScrubError(plain, loc) != plain {
		t.Error("an error without a password was rewrapped")
	}
}
