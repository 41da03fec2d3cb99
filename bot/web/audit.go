package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/eosbot/eos/bot/store"
)

// auditLimit is how many entries the audit page shows, newest first.
const auditLimit = 200

// auditFilter is the audit page's form: GET parameters, so it works without JavaScript.
type auditFilter struct {
	Text, Kind, Service, Env string
}

func (f auditFilter) keep(e *store.Entry) bool {
	return (f.Kind == "" || e.Kind == f.Kind) &&
		(f.Service == "" || strings.EqualFold(e.Service, f.Service)) &&
		(f.Env == "" || strings.EqualFold(e.Env, f.Env)) &&
		(f.Text == "" || strings.Contains(strings.ToLower(e.Text+" "+e.User+" "+e.PlanID), strings.ToLower(f.Text)))
}

type auditData struct {
	Filter  auditFilter
	Kinds   []string
	Entries []store.Entry
	More    bool
}

var auditKinds = []string{"request", "preview", "approval", "rejection", "run", "result", "expiry", "cancel", "refusal"}

func (s *server) audit(w http.ResponseWriter, r *http.Request, v *viewer) {
	q := r.URL.Query()
	f := auditFilter{Text: q.Get("q"), Kind: q.Get("kind"), Service: q.Get("service"), Env: q.Get("env")}
	entries, err := s.st.Audit(r.Context(), func(e *store.Entry) bool { return f.keep(e) && v.entry(e) })
	if err != nil {
		s.fail(w, r, "reading the audit log", err)
		return
	}
	slices.Reverse(entries)
	d := auditData{Filter: f, Kinds: auditKinds}
	if len(entries) > auditLimit {
		entries, d.More = entries[:auditLimit], true
	}
	d.Entries = entries
	s.render(w, r, http.StatusOK, "audit", v, d)
}
