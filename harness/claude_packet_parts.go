package harness

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// claudePartLimit is the largest packet part, in UTF-16 code units (what
// JavaScript's String.length counts). Claude Code moves a hook's
// additionalContext longer than 10,000 characters into a file and shows the
// model only a 2,000-character preview, so a larger packet is split into
// parts delivered by separate hook entries, each with a short header.
const claudePartLimit = 9000

// splitPacket cuts packet into parts of at most claudePartLimit units,
// preferring to cut after a newline. The same function runs in Plan (to
// count the hook entries) and in the hook (to pick its part).
func splitPacket(packet string) []string {
	var parts []string
	for packet != "" {
		cut := cutPoint(packet, claudePartLimit)
		parts = append(parts, packet[:cut])
		packet = packet[cut:]
	}
	return parts
}

// cutPoint returns the byte index where the first part of s ends: all of s if
// it fits, else just after the last newline that fits, else the last whole
// rune that fits.
func cutPoint(s string, limit int) int {
	units, lastNL := 0, -1
	for i, r := range s {
		units += utf16.RuneLen(r)
		if units > limit {
			if lastNL > 0 {
				return lastNL
			}
			if i == 0 {
				return len(string(r))
			}
			return i
		}
		if r == '\n' {
			lastNL = i + 1
		}
	}
	return len(s)
}

// partText is part i (1-based) of n as given to the model: alone, the part
// itself; split, the part after a header that says how to reassemble it,
// since hooks run in parallel and their outputs may arrive in any order.
func partText(part string, i, n int) string {
	if n <= 1 {
		return part
	}
	return fmt.Sprintf("[ai-memory handoff packet, part %d of %d. The parts form one document; read them in part order.]\n%s", i, n, part)
}

// parsePart reads "i/n" from EnvPacketPart; "" means the whole packet.
func parsePart(v string) (i, n int, err error) {
	if v == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("bad %s %q: want i/n", EnvPacketPart, v)
	}
	return i, n, nil
}
