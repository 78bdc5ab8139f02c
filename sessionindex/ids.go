package sessionindex

import (
	"strconv"
	"strings"
	"time"
)

// idPrefixLayout is the minute prefix of every id: YYYYMMDD-HHMM in UTC.
const idPrefixLayout = "20060102-1504"

// highWaterKeep bounds the id_high_water map: a minute prefix older than
// this before now is forgotten. Only a start in the same minute as an
// evicted record could reuse its id, so an entry matters only while the
// clock can come back to that minute; a day covers any clock correction
// short of setting the date back.
const highWaterKeep = 24 * time.Hour

// nextID returns YYYYMMDD-HHMM-<runtime> in UTC, suffixed -2, -3, ... when
// that id is taken, or was issued before and evicted since (the index's
// id_high_water mark for that prefix): an id names one session only, ever.
func nextID(ix *Index, now time.Time, runtime string) string {
	base := now.UTC().Format(idPrefixLayout) + "-" + runtime
	for n := ix.IDHighWater[base] + 1; ; n++ {
		id := base
		if n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		if ix.Find(id) < 0 {
			return id
		}
	}
}

// rememberIDs raises the high-water mark of each evicted record's prefix,
// so that its id is not issued again, and forgets prefixes older than
// highWaterKeep.
func rememberIDs(ix *Index, evicted []Record, now time.Time) {
	for _, r := range evicted {
		base, n := splitID(r.ID)
		if base == "" {
			continue // a foreign id: nextID can never produce it
		}
		if ix.IDHighWater == nil {
			ix.IDHighWater = map[string]int{}
		}
		ix.IDHighWater[base] = max(ix.IDHighWater[base], n)
	}
	for base := range ix.IDHighWater {
		if t := timeFromID(base); !t.IsZero() && now.Sub(t) > highWaterKeep {
			delete(ix.IDHighWater, base)
		}
	}
	if len(ix.IDHighWater) == 0 {
		ix.IDHighWater = nil
	}
}

// splitID splits "YYYYMMDD-HHMM-runtime[-N]" into its prefix and ordinal
// (1 for no suffix). It returns "" for ids of another form.
func splitID(id string) (string, int) {
	if timeFromID(id).IsZero() || len(id) <= len(idPrefixLayout)+1 || id[len(idPrefixLayout)] != '-' {
		return "", 0
	}
	rest := id[len(idPrefixLayout)+1:]
	if i := strings.LastIndexByte(rest, '-'); i > 0 {
		if n, err := strconv.Atoi(rest[i+1:]); err == nil && n >= 2 && strconv.Itoa(n) == rest[i+1:] {
			return id[:len(idPrefixLayout)+1+i], n
		}
	}
	return id, 1
}
