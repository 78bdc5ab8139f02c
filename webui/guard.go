package webui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// CookieName holds the token after the first visit.
const CookieName = "ai_memory_token"

// csp allows only this origin's own script, style and requests.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// NewToken returns 32 random bytes in hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate the ui token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// AllowedHosts are the Host header values a listener on addr answers: the
// address itself and, on loopback, localhost with the same port.
func AllowedHosts(addr net.Addr) []string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return []string{addr.String()}
	}
	hosts := []string{net.JoinHostPort(host, port)}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		hosts = append(hosts, net.JoinHostPort("localhost", port), net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port))
	}
	return hosts
}

// guard wraps h with the security checks, in this order: Host, method,
// token. A refused request gets a short plain-text reason and no page.
func guard(token string, hosts []string, h http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, host := range hosts {
		allowed[strings.ToLower(host)] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("Content-Security-Policy", csp)
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Referrer-Policy", "no-referrer")
		hdr.Set("X-Frame-Options", "DENY")
		hdr.Set("Cache-Control", "no-store")
		switch {
		case !allowed[strings.ToLower(r.Host)]:
			http.Error(w, "wrong Host header: open the URL that `ai-memory ui` printed", http.StatusMisdirectedRequest)
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			hdr.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only: only GET and HEAD are served", http.StatusMethodNotAllowed)
		case sameToken(r.URL.Query().Get("token"), token):
			setCookie(w, token)
			q := r.URL.Query()
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther) // drop the token from history and logs
		case cookieToken(r, token):
			h.ServeHTTP(w, r)
		default:
			http.Error(w, "missing or wrong token: open the URL that `ai-memory ui` printed", http.StatusForbidden)
		}
	})
}

func sameToken(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func cookieToken(r *http.Request, token string) bool {
	c, err := r.Cookie(CookieName)
	return err == nil && sameToken(c.Value, token)
}

func setCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
}
