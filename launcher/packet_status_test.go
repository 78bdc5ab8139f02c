package launcher

import "testing"

func TestResultStatus(t *testing.T) {
	for _, tc := range []struct {
		meta map[string]any
		want string
	}{
		{map[string]any{"exit_code": 0.0, "is_error": false, "wall_time_seconds": 0.1}, ""},
		{map[string]any{"exit_code": 2.0, "is_error": true}, "exit 2"},
		{map[string]any{"is_error": true}, "failed"},
		{map[string]any{"exit_code": 0.0, "truncated": true}, "output cut"},
		{map[string]any{"still_running": true}, "still running"},
		{map[string]any{"is_error": true, "signal": "SIGKILL", "truncated": true}, "failed, signal SIGKILL, output cut"},
		{nil, ""},
	} {
		if got := ResultStatus(tc.meta); got != tc.want {
			t.Errorf("ResultStatus(%v) = %q; want %q", tc.meta, got, tc.want)
		}
	}
}
