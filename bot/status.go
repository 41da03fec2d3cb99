package bot

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/eosbot/eos/adapters"
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
	var running []string
	if locks, err := e.st.Locks(ctx); err == nil {
		for _, l := range locks {
			if env, service, _ := strings.Cut(l.Key, "/"); matches(env, service) && e.seesPlanID(ctx, c, l.Holder) {
				running = append(running, fmt.Sprintf("%s: run %s since %s", l.Key, l.Holder, l.Since.UTC().Format("15:04 UTC")))
			}
		}
	}
	// An empty answer says which environment it is about: the one asked for, or all of them.
	where := " yet"
	if in.Env != "" {
		where = " in " + in.Env
	}
	left := e.unfinishedKeys(ctx, matches) // leftover.go
	for k, r := range left {
		if !e.seesPlanID(ctx, c, r.ID) {
			delete(left, k)
		}
	}
	if len(byEnv) == 0 && len(pending) == 0 && len(running) == 0 && len(left) == 0 {
		what := "Nothing is"
		if in.Noun != "" {
			what = in.Noun + " is not"
		}
		return said(render.NothingDeployed(what, where))
	}
	var blocks []adapters.Block
	if len(byEnv) > 0 {
		header := []string{"service", "declared by", "since", "values"}
		if in.Noun != "" {
			header = append(header, "running now")
		}
		for _, env := range slices.Sorted(maps.Keys(byEnv)) {
			blocks = append(blocks, adapters.Heading{Text: "Deployed in " + env}, adapters.Table{Header: header, Rows: byEnv[env]})
		}
	} else if in.Noun != "" && len(left) > 0 {
		blocks = append(blocks, adapters.Text{Text: in.Noun + " has no declared state" + where + ": its last run did not finish."})
	} else {
		blocks = append(blocks, adapters.Text{Text: "Nothing deployed" + where + "."})
	}
	for _, k := range slices.Sorted(maps.Keys(left)) {
		r := left[k]
		env, service, _ := strings.Cut(k, "/")
		blocks = append(blocks, adapters.Text{Text: fmt.Sprintf("What run %s (%s %s, %s at %s) left of %s in %s:",
			r.ID, r.Verb, r.Target, r.State, r.Finished.UTC().Format("Jan 02 15:04 UTC"), service, env)},
			adapters.List{Items: e.leftItems(ctx, r, k)})
	}
	if len(pending) > 0 {
		var items []string
		for _, p := range pending {
			items = append(items, fmt.Sprintf("Plan %s · %s · asked by @%s · expires %s", p.ID, render.RequestLine(p.Plan.Spec),
				p.Requester.Name, p.Expires.UTC().Format("15:04 UTC")))
		}
		blocks = append(blocks, adapters.Text{Text: "Waiting for approval:"}, adapters.List{Items: items})
	}
	if len(running) > 0 {
		blocks = append(blocks, adapters.Text{Text: "Running now:"}, adapters.List{Items: running})
	}
	if in.Noun == "" && len(byEnv) > 0 {
		blocks = append(blocks, adapters.Context{Text: "@eos status SERVICE also shows what runs now"})
	}
	return said(adapters.NewDoc(blocks...))
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
