package redact

import "strings"

// Shared pieces of the expressions below.
const (
	// quote is an optional quote after a key or before a value, also in
	// its JSON-escaped form (a tool result that prints JSON inside JSON).
	quote = `(?:\\{0,3}["'])?`
	// authScheme is an optional HTTP auth scheme kept in front of a value.
	authScheme = `(?:(?:bearer|basic|token|bot|digest)[ \t]+)?`
)

// blockRules returns the families that span lines; they run first, over
// the whole text. It is called once, by [rules].
func blockRules() []rule {
	return []rule{
		newRule("pem-private-key", []string{"private key"},
			`-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----`+
				`(?:(?s:(?P<secret>.*?))-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----`+
				`|(?P<secret2>[A-Za-z0-9+/=\s\\:,-]*))`, nil),
	}
}

// lineRules returns the table of single-line secret families, applied in
// order. Token families come first; the context families (headers,
// assignments, URLs, command lines) run after them, so a value already
// redacted by a token family is left alone. It is called once, by [rules].
func lineRules() []rule {
	line := tokenRules()
	line = append(line, vendorRule())
	line = append(line, shapeRules()...)
	line = append(line, contextRules()...)
	return append(line, commandRules()...)
}

// tokenRules are the first token families, each with its own prefix.
func tokenRules() []rule {
	return []rule{
		newRule("jwt", []string{"eyj"},
			`\b(?P<secret>eyJ[A-Za-z0-9_-]{13,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})`, nil),
		newRule("openai-anthropic", []string{"sk-"},
			`\b(?P<secret>sk-[A-Za-z0-9_-]{16,})`, randomSecret),
		newRule("stripe", []string{"_live_", "_test_"},
			`\b(?P<secret>(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})`, nil),
		newRule("github", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			`\b(?P<secret>gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`, nil),
		newRule("gitlab", []string{"glpat-"},
			`\b(?P<secret>glpat-[A-Za-z0-9_-]{20,})`, nil),
		newRule("aws-access-key-id", []string{"akia", "asia"},
			`\b(?P<secret>(?:AKIA|ASIA)[A-Z0-9]{16})\b`, nil),
		newRule("google-api-key", []string{"aiza"},
			`\b(?P<secret>AIza[0-9A-Za-z_-]{30,})`, nil),
		newRule("google-oauth-refresh", []string{"1//"},
			`\b(?P<secret>1//[0-9A-Za-z_-]{20,})`, nil),
		newRule("slack", []string{"xox", "xapp-"},
			`\b(?P<secret>xox[abprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,})`, nil),
		newRule("meta-graph", []string{"eaa"},
			`\b(?P<secret>EAA[A-Za-z0-9]{20,})`, randomSecret),
		newRule("telegram-bot", []string{":aa"},
			`(?:bot|\b)(?P<secret>[0-9]{6,10}:AA[A-Za-z0-9_-]{30,})`, nil),
		newRule("gohighlevel", []string{"pit-"},
			`\b(?P<secret>pit-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b`, nil),
	}
}

// contextRules are the families recognised by what surrounds a value: a
// header, a key or variable name, a URL's user part.
func contextRules() []rule {
	return []rule{
		withThen(followedBy("", " \t"), newRule("bearer", []string{"bearer"},
			`(?i)\bbearer[ \t]+(?P<secret>[A-Za-z0-9\-._~+/]{16,}=*)`, randomSecret)),
		withThen(followedBy(skipQuotes, ":"), newRule("auth-header", []string{"authorization", "private-token", "x-api-key"},
			`(?i)\b(?:proxy-)?(?:authorization|private-token|x-api-key)`+quote+`[ \t]*:[ \t]*`+quote+authScheme+
				`(?P<secret>[^\s"'\\,;@]{8,})`, notReference)),
		withThen(followedBy(skipQuotes, ":"), newRule("keyed-credential", []string{"key", "token", "secret"},
			`(?i)\b(?:[a-z0-9_-]*(?:api|auth|access|secret|refresh|session|private)[-_]?(?:key|token)|client[-_]secret)`+
				quote+`[ \t]*:[ \t]*`+quote+authScheme+`(?P<secret>[^\s"'\\,;@]{8,})`, randomValue)),
		withThen(followedBy(skipQuotes, ":="), newRule("aws-secret", []string{"aws_secret_access_key", "aws_session_token"},
			`(?i)\baws_(?:secret_access_key|session_token)`+quote+`[ \t]*[:=][ \t]*`+quote+
				`(?P<secret>[A-Za-z0-9/+=]{16,})`, nil)),
		withThen(followedBy(skipQuotes, ":="), newRule("env-assignment",
			[]string{"key", "token", "secret", "password", "passwd", "credential", "credentials"},
			`\b(?P<name>[A-Z][A-Z0-9_]*_(?:API_KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)`+
				`|API_KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)`+quote+`[ \t]*[:=][ \t]*`+
				`(?:\\{0,3}"(?P<secret>[^"\\\r\n]*)|'(?P<secret2>[^'\r\n]*)`+
				"|(?P<secret3>[^\\s\"'`=,;(){}\\[\\]<>][^\\s\"'`=,;(){}<>]*=*))", assignedValue)),
		withThen(followedBy(skipQuotes, ":="), newRule("credential-assignment", credentialKeys,
			`(?i)\b(?P<name>[a-z0-9_.-]*?(?:`+credentialNames+`))`+quote+`[ \t]*[:=][ \t]*`+
				`(?:\\{0,3}"(?P<secret>[^"\\\r\n]+)|'(?P<secret2>[^'\r\n]+)`+
				"|(?P<secret3>[^\\s\"'`=,;(){}\\[\\]<>\\\\][^\\s\"'`=,;(){}<>\\[\\]\\\\]*=*))", credentialValue)),
		withThen(hasUserPassword, newRule("url-credentials", []string{"://"},
			`\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:/?#@\[\]"'<>]*:(?P<secret>[^\s/?#@"'<>]+)@`, notReference)),
	}
}

// withThen sets the keyword filter of r.
func withThen(then func(string) bool, r rule) rule {
	r.then = then
	return r
}

// skipQuotes are the bytes that may sit between a key and its operator.
const skipQuotes = "\"'\\ \t"

// followedBy returns a keyword filter: after skipping any of the bytes in
// skip, the text must start with one of the bytes in ops.
func followedBy(skip, ops string) func(string) bool {
	if skip == "" {
		return func(after string) bool { return after != "" && strings.IndexByte(ops, after[0]) >= 0 }
	}
	return func(after string) bool {
		i := 0
		for i < len(after) && strings.IndexByte(skip, after[i]) >= 0 {
			i++
		}
		return i < len(after) && strings.IndexByte(ops, after[i]) >= 0
	}
}

// hasUserPassword is the keyword filter of URLs: the authority after "://"
// must hold a ':' before an '@' ("user:password@host").
func hasUserPassword(after string) bool {
	end := strings.IndexAny(after, "/?# \t\r\n\"'<>")
	if end < 0 {
		end = len(after)
	}
	at := strings.LastIndexByte(after[:end], '@')
	return at > 0 && strings.IndexByte(after[:at], ':') >= 0
}

// randomSecret accepts tokens that look machine-generated, so kebab-case
// prose after a prefix ("sk-learn-style-names", "Bearer authentication")
// survives.
func randomSecret(_, secret, _ string) bool { return looksRandom(secret) }

// notReference rejects values that only point at a secret: variable and
// template references, placeholders, dotted identifiers and function calls.
func notReference(_, secret, after string) bool {
	switch {
	case strings.HasPrefix(after, "("):
		return false
	case strings.ContainsAny(secret[:1], "$%<{"):
		return false
	case isDottedIdentifier(secret):
		return false
	}
	return true
}

// randomValue is notReference for loosely named keys ("*-token: ..."),
// which also needs the value to look machine-generated.
func randomValue(match, secret, after string) bool {
	return notReference(match, secret, after) && looksRandom(secret)
}

// assignedValue vets the value of an UPPER_SNAKE assignment: references,
// booleans, null-likes and plain numbers (MAX_TOKEN=4096) are not secrets,
// and a name that ends in a bare _KEY (SORT_KEY, CACHE_KEY) only counts
// when its value looks random.
func assignedValue(match, secret, after string) bool {
	if !notReference(match, secret, after) {
		return false
	}
	switch strings.ToLower(secret) {
	case "true", "false", "null", "nil", "none", "undefined", "yes", "no":
		return false
	}
	if strings.Trim(secret, "0123456789") == "" {
		return false
	}
	if after != "" && strings.ContainsAny(after[:1], valueChars) {
		return false // cut at an inner '=': "A_TOKEN= B=c" is no assignment of "B="
	}
	name := match[:strings.IndexAny(match, "\"' \t:=\\")]
	if strings.HasSuffix(name, "_KEY") && !strongKeyName(name) {
		return looksRandom(secret)
	}
	return true
}

// valueChars may not follow a bare assigned value: they would mean the value
// ended inside a longer word.
const valueChars = "=_-.+/0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// strongKeyName reports whether a *_KEY name says it holds a credential.
func strongKeyName(name string) bool {
	for _, s := range []string{"API_KEY", "SECRET_KEY", "PRIVATE_KEY", "ACCESS_KEY", "AUTH_KEY", "SIGNING_KEY", "ENCRYPTION_KEY", "MASTER_KEY"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// looksRandom reports whether s has a digit or at least two upper-case and
// two lower-case letters: generated tokens almost always do, words and
// kebab-case phrases almost never.
func looksRandom(s string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			return true
		case 'A' <= c && c <= 'Z':
			upper++
		case 'a' <= c && c <= 'z':
			lower++
		}
	}
	return upper >= 2 && lower >= 2
}

// isDottedIdentifier reports whether s looks like a.b.c (process.env.TOKEN,
// settings.api_key): a reference in code, not a secret. Digits disqualify,
// so dotted tokens such as Google's "ya29.a0Af..." are still redacted.
func isDottedIdentifier(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || strings.ContainsAny(s, "0123456789") {
		return false
	}
	for _, p := range parts {
		if p == "" || !isIdentifier(p) {
			return false
		}
	}
	return true
}

func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
