package webui

import (
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
)

// foldBytes is the size above which a tool result shows a preview and a
// "show all" fold.
const foldBytes = 1500

var funcs = template.FuncMap{
	"clean":   history.Clean,
	"oneline": history.OneLine,
	"when":    when,
	"dur":     dur,
	"preview": preview,
	"long":    func(s string) bool { return len(s) > foldBytes },
	"toolname": func(e ledger.Event) string {
		if t, ok := e.Metadata["tool"].(string); ok && t != "" {
			return t
		}
		name, _, _ := strings.Cut(e.Content, ": ")
		return name
	},
	"iserror": func(e ledger.Event) bool { b, _ := e.Metadata["is_error"].(bool); return b },
	"when2":   func(e ledger.Event) string { return eventTime(e) },
	"short":   func(s string) string { return s[:min(8, len(s))] },
	"itoa":    itoa,
	"inc":     func(n int64) int64 { return n + 1 },
	"deref":   func(p *int) int { return *p },
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func eventTime(e ledger.Event) string {
	if !e.OccurredAt.IsZero() {
		return when(e.OccurredAt)
	}
	return when(e.CreatedAt)
}

func dur(s history.Session) string { return history.FormatDuration(s.Duration()) }

// preview is the first foldBytes of s, cut at a rune boundary.
func preview(s string) string {
	if len(s) <= foldBytes {
		return s
	}
	cut := foldBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}
