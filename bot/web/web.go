package web

import (
	"context"
	"embed"
	"github.com/eosbot/eos/bot/runwatch"
	"github.com/eosbot/eos/bot/webapi"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/store"
)

//go:embed templates/*.html static/*
var assets embed.FS

// Source is what the page reads from the engine; *bot.Engine satisfies it (cmd/eos checks
// that where it wires them), and the page never imports the engine.
type Source interface {
	Store() *store.Store
	Web() webapi.WebConfig
	MaySee(ctx context.Context, person store.WebPerson, platform, channel string) bool
	Watch(runID string) (past []runwatch.RunUpdate, live <-chan runwatch.RunUpdate, stop func())
}

// OpsViewer is an optional capability of a Source: whether person reads one of the engine's
// ops channels, which see everything, including audit entries that name no plan.
type OpsViewer interface {
	MaySeeAll(ctx context.Context, person store.WebPerson) bool
}

// Config configures the page's handler.
type Config struct {
	// Engine is where plans, runs and visibility come from.
	Engine Source
	// Now is the clock (time.Now when nil); tests move it to expire links and sessions.
	Now func() time.Time
	// Logger gets one line per refused sign-in and per failed read; never a token or cookie.
	Logger *slog.Logger
	// PollEvery is how often live pages re-read the store (1 s when zero).
	PollEvery time.Duration
}

// server is the status page's handler.
type server struct {
	src   Source
	st    *store.Store
	now   func() time.Time
	log   *slog.Logger
	poll  time.Duration
	pages pages
	mux   *http.ServeMux
}

// New returns the status page's handler. It serves every path it is given: mount it at "/"
// after the more specific routes (/healthz, /metrics).
func New(cfg Config) http.Handler {
	s := &server{src: cfg.Engine, st: cfg.Engine.Store(), now: cfg.Now, log: cfg.Logger, poll: cfg.PollEvery, pages: loadPages()}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.poll <= 0 {
		s.poll = time.Second
	}
	s.routes()
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, http.StatusForbidden, "This form did not come from this page, so nothing was done.")
	}))
	return headers(cop.Handler(s.mux))
}

func (s *server) routes() {
	static, _ := fs.Sub(assets, "static")
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /signin/{token}", s.signInPage)
	m.HandleFunc("POST /signin", s.signIn)
	m.HandleFunc("POST /signout", s.signOut)
	m.HandleFunc("GET /{$}", s.authed(s.overview))
	m.HandleFunc("GET /plans/{id}", s.authed(s.plan))
	m.HandleFunc("GET /runs/{id}", s.authed(s.run))
	m.HandleFunc("GET /runs/{id}/events", s.authedData(s.runEvents))
	m.HandleFunc("GET /locks", s.authed(s.locks))
	m.HandleFunc("GET /locks/events", s.authedData(s.lockEvents))
	m.HandleFunc("GET /events", s.authedData(s.overviewEvents))
	m.HandleFunc("GET /services", s.authed(s.services))
	m.HandleFunc("GET /services/{env}/{name}", s.authed(s.service))
	m.HandleFunc("GET /audit", s.authed(s.audit))
	m.HandleFunc("/", s.authed(func(w http.ResponseWriter, r *http.Request, v *viewer) {
		s.notFound(w, r, v, "There is no page at this address.")
	}))
	s.mux = m
}

// headers sets the security headers every response carries; pages with data are not cached.
func headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		if strings.HasPrefix(r.URL.Path, "/static/") {
			h.Set("Cache-Control", "public, max-age=300")
		} else {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
