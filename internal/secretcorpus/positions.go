package secretcorpus

import (
	"bytes"
	"encoding/json"
	"sort"
)

// The four positions of a transcript that hold free text, rendered as the
// native stores hold them. Every shape is planted in each of them.

// UserText is the shape as a person pastes it into a prompt.
func UserText(text string) string { return "please check this config:\n" + text }

// AssistantText is the shape quoted back by the agent.
func AssistantText(text string) string {
	return "I found this in the environment:\n\n```\n" + text + "\n```\nI will not print it again."
}

// EnvFile is the file a tool writes or prints: the shape among ordinary
// settings, one per line, as a `.env` or config file would have it.
func EnvFile(text string) string { return "# settings\nLOG_LEVEL=debug\n" + text + "\nPORT=8080\n" }

// ToolResult is the shape in a tool's output (`cat .env`).
func ToolResult(text string) string { return EnvFile(text) }

// JSON encodes v the way the harnesses write JSON (no HTML escaping).
func JSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// FragmentLen is the length of the shortest part of a secret whose presence
// counts as a leak. Every corpus secret is at least this long.
const FragmentLen = 12

// Finder finds leaked fragments of the corpus secrets in stored bytes.
type Finder struct {
	frags map[string]int // every FragmentLen window of every secret -> shape index
}

// NewFinder indexes every FragmentLen-byte window of every secret of
// shapes, in raw form and JSON-escaped (as a segment line holds it).
func NewFinder(shapes []Shape) *Finder {
	f := &Finder{frags: map[string]int{}}
	for i, s := range shapes {
		for _, sec := range s.Secrets {
			esc := string(bytes.Trim(JSON(sec), `"`))
			for _, v := range []string{sec, esc} {
				for j := 0; j+FragmentLen <= len(v); j++ {
					f.frags[v[j:j+FragmentLen]] = i
				}
			}
		}
	}
	return f
}

// Find returns the indexes (sorted, distinct) of the shapes a fragment of
// which occurs in hay.
func (f *Finder) Find(hay []byte) []int {
	seen := map[int]bool{}
	for j := 0; j+FragmentLen <= len(hay); j++ {
		if i, ok := f.frags[string(hay[j:j+FragmentLen])]; ok {
			seen[i] = true
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}
