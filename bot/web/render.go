package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// pages holds one template set per page, each the layout plus that page's blocks.
type pages map[string]*template.Template

var pageNames = []string{"signin", "signedout", "message", "overview", "plan", "run", "locks", "services", "service", "audit"}

var funcs = template.FuncMap{
	"when": when,
	"short": func(s string) string {
		if len(s) > 16 {
			return s[:16] + "…"
		}
		return s
	},
}

func loadPages() pages {
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/parts.html"))
	out := pages{}
	for _, n := range pageNames {
		out[n] = template.Must(template.Must(base.Clone()).ParseFS(assets, "templates/"+n+".html"))
	}
	return out
}

// page is what the layout gets: who is signed in, their form token, which nav entry is
// current, and the page's own data.
type page struct {
	Person *store.WebPerson
	Form   string
	Nav    string
	Data   any
}

// render writes page name with status; v is nil for a visitor without a session.
func (s *server) render(w http.ResponseWriter, r *http.Request, status int, name string, v *viewer, data any) {
	p := page{Nav: name, Data: data}
	if v != nil {
		p.Person, p.Form = &v.person, v.form
	}
	var b bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&b, "layout.html", p); err != nil {
		s.log.Error("status page: rendering", "page", name, "path", logPath(r), "err", err)
		http.Error(w, "the page could not be shown; the error is in Eos's log", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

type message struct{ Title, Text string }

// refuse shows why a request was refused; it names no secret.
func (s *server) refuse(w http.ResponseWriter, r *http.Request, status int, text string) {
	s.render(w, r, status, "message", nil, message{Title: "Not signed in", Text: text})
}

// notFound says there is nothing (visible) at this address: an invisible plan looks exactly
// like a missing one.
func (s *server) notFound(w http.ResponseWriter, r *http.Request, v *viewer, text string) {
	s.render(w, r, http.StatusNotFound, "message", v, message{Title: "Not found", Text: text})
}

func (s *server) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	s.log.Error("status page: "+what, "path", logPath(r), "err", err)
	s.render(w, r, http.StatusInternalServerError, "message", nil, message{Title: "Something failed", Text: "Eos could not read its store; the error is in its log."})
}

// when is a time as the page shows it, in UTC to the minute.
func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// logPath is the request's path as logs may show it: a sign-in link's token is a secret, so
// "/signin/…" stands for it.
func logPath(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, "/signin/") {
		return "/signin/…"
	}
	return r.URL.Path
}
