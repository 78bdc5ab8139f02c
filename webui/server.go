package webui

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/ai-memory/ai-memory/history"
	"github.com/ai-memory/ai-memory/ledger"
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options struct {
	Token string   // required on every request (NewToken)
	Hosts []string // accepted Host header values (AllowedHosts)
	// Scope is "this checkout": the workstream list shows its workstreams
	// unless ?all=1 asks for every checkout. Zero means all.
	Scope ledger.Scope
	Now   func() time.Time // nil: time.Now
	// Reopen opens the ledger again; when set, a ledger file (FileBacked) replaced on disk
	// (by `ai-memory ledger rebuild` into a new file, or a restore) is
	// detected and reopened, without restarting the server.
	Reopen func() (ledger.Ledger, error)
}

// Server renders the pages. It only reads the ledger.
type Server struct {
	opts  Options
	tmpl  *template.Template
	state replacer
}

// New returns a server over db.
func New(db ledger.Ledger, opts Options) (*Server, error) {
	if opts.Token == "" {
		return nil, errors.New("webui: empty token")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	t, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, tmpl: t, state: replacer{reopen: opts.Reopen, stat: os.Stat}}
	s.state.cur.Store(newStore(db, os.Stat))
	return s, nil
}

// DB returns the ledger the server reads now (it changes when the file is
// replaced and Options.Reopen is set); the caller closes it at exit.
func (s *Server) DB() ledger.Ledger { return s.state.cur.Load().db }

// store returns what this request reads.
func (s *Server) store() *store { return s.state.current(s.opts.Now()) }

// Handler is the guarded application.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", s.workstreams)
	mux.HandleFunc("GET /w/{ws}", s.timeline)
	mux.HandleFunc("GET /w/{ws}/tail", s.tail)
	mux.HandleFunc("GET /w/{ws}/sessions", s.sessions)
	mux.HandleFunc("GET /w/{ws}/s/{run}", s.session)
	mux.HandleFunc("GET /w/{ws}/search", s.search)
	return guard(s.opts.Token, s.opts.Hosts, mux)
}

// render executes one template; a failure becomes a 500 with the reason.
func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
	}
}

// fail maps a read error to a status: unknown ids are 404.
func fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, ledger.ErrNotFound) || errors.Is(err, history.ErrNoSession) {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

func queryInt(r *http.Request, name string, def int64) int64 {
	if n, err := strconv.ParseInt(r.URL.Query().Get(name), 10, 64); err == nil && n >= 0 {
		return n
	}
	return def
}

func (s *Server) ctx(r *http.Request) context.Context { return r.Context() }
