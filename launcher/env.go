package launcher

import (
	"sort"
	"strings"
)

// mergeEnv returns base with extra set (replacing existing keys) and the
// keys in dropBlank removed when their value is blank: a blank store
// override means "unset" for us, so it must mean the same for the agent.
func mergeEnv(base []string, extra map[string]string, dropBlank []string) []string {
	drop := map[string]bool{}
	for _, k := range dropBlank {
		drop[k] = true
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		if _, ok := extra[k]; ok {
			continue
		}
		if drop[k] && strings.TrimSpace(v) == "" {
			continue
		}
		out = append(out, kv)
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}
