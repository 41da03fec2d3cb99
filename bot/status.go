package bot

import (
	"context"
	"sort"
	"strings"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// status answers `status [SERVICE] [in ENV]`: what is deployed, which plans wait for an
// approval and which runs hold a lock. Naming a service also asks each layer what runs now
// (a live look, too slow to take for every service at once).
func (e *Engine) status(ctx context.Context, c conv, in *intents.Intent) answer {
	all, err := e.st.AllDeclared(ctx)
	if err != nil {
		return e.fail(c, "reading status", err)
	}
	matches := func(env, service string) bool {
		return (in.Noun == "" || service == in.Noun) && (in.Env == "" || env == in.Env)
	}
	byEnv := map[string][][]string{}
	for _, d := range all {
		env, service, _ := strings.Cut(d.Key, "/")
		if !matches(env, service) || !e.seesPlanID(ctx, c, d.RunID) {
			continue
		}
		row := []string{service, "run " + d.RunID, d.At.UTC().Format("Jan 02 15:04 UTC"), values(d.Spec)}
		if in.Noun != "" {
			row = append(row, strings.Join(e.cfg.Runner.Status(ctx, d.Spec), " · "))
		}
		byEnv[env] = append(byEnv[env], row)
	}
	for _, rows := range byEnv {
		sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	}
	pending, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
		return p.State == store.PlanPending && matches(p.Plan.Spec.Env, p.Plan.Spec.Target) && e.sees(c, p)
	})
	if err != nil {
		return e.fail(c, "reading status", err)
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].Created.Before(pending[j].Created) })
	var running []store.Lock
	if locks, err := e.st.Locks(ctx); err == nil {
		for _, l := range locks {
			if env, service, _ := strings.Cut(l.Key, "/"); matches(env, service) && e.seesPlanID(ctx, c, l.Holder) {
				running = append(running, l)
			}
		}
	}
	view := render.StatusView{Service: in.Noun, Env: in.Env, Deployed: byEnv, Pending: pending, Running: running,
		Left: map[string]render.LeftRun{}}
	for k, r := range e.unfinishedKeys(ctx, matches) { // leftover.go
		if !e.seesPlanID(ctx, c, r.ID) {
			continue
		}
		left := render.LeftRun{Run: r}
		if render.UnknownLayer(r) != nil {
			left.Check = e.outcomeCheck(ctx, r, k)
		}
		view.Left[k] = left
	}
	return said(render.Status(view))
}

// values is the spec's flag values, as name=value pairs.
func values(s executor.Spec) string {
	if len(s.Units) == 0 {
		return ""
	}
	var kv []string
	for k, v := range s.Units[0].Values {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, " ")
}
