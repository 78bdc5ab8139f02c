package redact

import "strings"

// shapeRules are token families without a distinctive prefix of their
// own: the keyword is short or common ("sk", "sg.", "key-", two letters of
// base64), so a filter checks the shape of what follows before the line
// is examined.
func shapeRules() []rule {
	return []rule{
		withThen(hexRun(32), newRule("twilio-api-key", []string{"sk"},
			`\b(?P<secret>SK[0-9a-fA-F]{32})\b`, nil)),
		withThen(hexRun(32), newRule("mailgun", []string{"key-"},
			`\b(?P<secret>key-[0-9a-f]{32})\b`, nil)),
		withThen(sendgridShape, newRule("sendgrid", []string{"sg."},
			`\b(?P<secret>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})`, nil)),
		withThen(discordShape, newRule("discord-bot", []string{"mt", "mj", "mz", "nd", "nt", "nj", "nz", "od", "ot"},
			`\b(?P<secret>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40})`, randomSecret)),
		newRule("slack-webhook", []string{"hooks.slack.com/"},
			`hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/-]{20,})`, randomSecret),
		newRule("azure-key", []string{"accountkey=", "sharedaccesskey=", "sig="},
			`(?i)\b(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})`+
				`|[?&]sig=(?P<secret2>[A-Za-z0-9%+/=_-]{20,})`, randomSecret),
	}
}

// hexRun returns a keyword filter: the keyword must be followed by n hex
// digits.
func hexRun(n int) func(string) bool {
	return func(after string) bool {
		if len(after) < n {
			return false
		}
		for i := range n {
			if !isHex(after[i]) {
				return false
			}
		}
		return true
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// sendgridShape: "SG." is followed by 22 token characters and a dot.
func sendgridShape(after string) bool {
	return len(after) > 22 && after[22] == '.' && tokenRun(after[:22])
}

// discordShape: a Discord bot token's first part is 24 to 28 base64url
// characters, the keyword being its first two, and a dot follows it. (The
// expression then checks the exact letters, which the filter may not.)
func discordShape(after string) bool {
	n := 0
	for n < len(after) && n <= 26 && isTokenByte(after[n]) {
		n++
	}
	return n >= 22 && n <= 26 && n < len(after) && after[n] == '.'
}

// lineHasAny returns a keyword filter: the rest of the keyword's line must
// hold one of subs (give every letter case that counts: filters ignore
// case, as keywords do).
func lineHasAny(subs ...string) func(string) bool {
	return func(after string) bool {
		if i := strings.IndexByte(after, '\n'); i >= 0 {
			after = after[:i]
		}
		for _, s := range subs {
			if strings.Contains(after, s) {
				return true
			}
		}
		return false
	}
}

// tokenRun reports whether s is all base64url characters.
func tokenRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	return c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// commandRules are credentials given to command-line tools: a password
// glued to mysql's -p, sshpass -p, curl -u user:password, and long options
// that name a credential (--password X, --db-password=X, --api-key X).
func commandRules() []rule {
	return []rule{
		newRule("mysql-password", []string{"mysql", "mariadb"},
			`\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n;&|]*?[ \t]-p`+
				`(?:'(?P<secret>[^'\n]+)'|"(?P<secret2>[^"\n]+)"|(?P<secret3>[^\s'"-][^\s'"]*))`, commandValue),
		newRule("sshpass", []string{"sshpass"},
			`\bsshpass\b[^\n;&|]*?[ \t]-p[ \t]*`+
				`(?:'(?P<secret>[^'\n]+)'|"(?P<secret2>[^"\n]+)"|(?P<secret3>[^\s'"-][^\s'"]*))`, commandValue),
		withThen(lineHasAny("-u", "-U"), newRule("curl-user", []string{"curl"},
			`\bcurl\b[^\n;&|]*?[ \t](?:-u|--user)(?:[ \t]+|=)?['"]?[^\s:'"]*:(?P<secret>[^\s'"]+)`, commandValue)),
		withThen(followedBy("", " \t="), newRule("credential-flag",
			[]string{"-password", "-passwd", "-pass", "-token", "-secret", "-api-key", "-apikey", "-access-key", "-secret-key"},
			`(?i)(?:^|[\s'"=(])--?(?:[a-z0-9]+-)*(?P<name>password|passwd|pass|token|secret|api-?key|access-key|secret-key)`+
				`(?:[ \t]+|=)(?:'(?P<secret>[^'\n]+)'|"(?P<secret2>[^"\n]+)"|(?P<secret3>[^\s'"-][^\s'"]*))`, flagValue)),
	}
}

// commandValue vets a command-line password: references and placeholders
// survive.
func commandValue(match, secret, after string) bool {
	return notReference(match, secret, after) && !isPlaceholder(secret)
}

// flagValue is commandValue for long options; a token, secret or key
// option (which also takes names and paths) needs a generated-looking
// value, a password option any value.
func flagValue(match, secret, after string) bool {
	if !commandValue(match, secret, after) {
		return false
	}
	if strings.Contains(strings.ToLower(match), "pass") {
		return true
	}
	return looksRandom(secret) && !strings.ContainsAny(secret[:1], "/.~")
}

// isPlaceholder reports whether s stands for a value rather than being
// one: PASSWORD, <password>, ..., ***, xxx.
func isPlaceholder(s string) bool {
	if strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" {
		return true
	}
	if strings.Trim(s, ".*xX") == "" || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "[") {
		return true
	}
	return false
}
