package ledger

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Hidden replaces a password wherever ai-memory shows a ledger location.
const Hidden = "***"

var (
	// urlPassword is the password of a URL's userinfo (scheme://user:pw@).
	urlPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)([^\s@]*)@`) })
	// kvPassword is a `password=` setting: a libpq keyword/value string or
	// a URL query parameter (also sslpassword=).
	kvPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&#]*)`) })
)

// HidePassword returns location (or any text holding one) with every
// password replaced by ***: a URL's userinfo password and `password=`
// settings, quoted or not. The rest stays readable for messages.
func HidePassword(location string) string {
	s := urlPassword().ReplaceAllString(location, "${1}"+Hidden+"@")
	return kvPassword().ReplaceAllString(s, "${1}"+Hidden)
}

// passwords are the secrets in location, raw and as they may be spelled
// in messages (escaped or not), for Scrub.
func passwords(location string) []string {
	var out []string
	add := func(p string) {
		if p != "" && p != Hidden {
			out = append(out, p)
		}
	}
	for _, m := range urlPassword().FindAllStringSubmatch(location, -1) {
		add(m[2])
		if u, err := url.PathUnescape(m[2]); err == nil {
			add(u)
		}
	}
	for _, m := range kvPassword().FindAllStringSubmatch(location, -1) {
		add(m[2])
		add(strings.Trim(m[2], "'"))
	}
	return out
}

// Scrub removes location's passwords from text (an error message from a
// driver may quote the connection string or the password alone), and
// hides any other URL or `password=` password the text holds.
func Scrub(text, location string) string {
	for _, p := range passwords(location) {
		text = strings.ReplaceAll(text, p, Hidden)
	}
	return HidePassword(text)
}

// ScrubError is err with its message scrubbed of location's passwords;
// errors.Is and errors.As still see the original chain.
func ScrubError(err error, location string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if s := Scrub(msg, location); s != msg {
		return &scrubbed{msg: s, err: err}
	}
	return err
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }
