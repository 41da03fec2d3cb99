package web

import (
	"context"
	"net/http"

	"github.com/eosbot/eos/bot/store"
)

// viewer is the signed-in person of one request and what they may see. MaySee may ask the
// chat platform, so answers are remembered for the request; an event stream forgets them at
// every tick (forget), so a person who loses a channel stops seeing it within the engine's
// own cache time, not at the end of a stream that may stay open for hours.
type viewer struct {
	ctx    context.Context
	src    Source
	st     *store.Store
	person store.WebPerson
	form   string // the token this person's forms carry
	seen   map[string]bool
	plans  map[string]bool
}

func (s *server) newViewer(r *http.Request, p store.WebPerson, sessionID string) *viewer {
	return &viewer{ctx: r.Context(), src: s.src, st: s.st, person: p, form: formToken(sessionID),
		seen: map[string]bool{}, plans: map[string]bool{}}
}

// forget drops the answers remembered so far.
func (v *viewer) forget() {
	clear(v.seen)
	clear(v.plans)
}

func (v *viewer) channel(platform, channel string) bool {
	if platform == "" || channel == "" {
		return false
	}
	k := platform + "\x00" + channel
	ok, done := v.seen[k]
	if !done {
		ok = v.src.MaySee(v.ctx, v.person, platform, channel)
		v.seen[k] = ok
	}
	return ok
}

// plan reports whether the person may see p: they may read the channel it was asked in, or
// the channel of its preview (a Discord thread is a channel of its own).
func (v *viewer) plan(p *store.Plan) bool {
	if p == nil {
		return false
	}
	if ok, done := v.plans[p.ID]; done {
		return ok
	}
	ok := v.channel(p.Request.Platform, p.Request.Channel) ||
		p.Preview.ID != "" && v.channel(p.Preview.Platform, p.Preview.Channel)
	v.plans[p.ID] = ok
	return ok
}

// planID is plan for an id: runs, locks, deployed services and audit entries are seen
// through the plan they belong to. An id that names no plan is not seen.
func (v *viewer) planID(id string) bool {
	if ok, done := v.plans[id]; done {
		return ok
	}
	p, err := v.st.Plan(v.ctx, id)
	if err != nil {
		v.plans[id] = false
		return false
	}
	return v.plan(p)
}

// entry reports whether the person may see an audit entry: with its plan, or, for an entry
// that names no plan, only when the Source confirms they read an ops channel.
func (v *viewer) entry(e *store.Entry) bool {
	if e.PlanID != "" {
		return v.planID(e.PlanID)
	}
	ops, ok := v.src.(OpsViewer)
	if !ok {
		return false
	}
	k := "\x00ops"
	all, done := v.seen[k]
	if !done {
		all = ops.MaySeeAll(v.ctx, v.person)
		v.seen[k] = all
	}
	return all
}
