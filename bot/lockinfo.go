package bot

import (
	"context"
	"fmt"
	"sort"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// locks answers `locks`: which run holds which unit, who asked, since when. A lock whose run is
// over (or whose plan never became a run) is left over from a crash: it is freed, and the
// answer says so.
func (e *Engine) locks(ctx context.Context, c conv, _ *intents.Intent) answer {
	held, err := e.st.Locks(ctx)
	if err != nil {
		return e.fail(c, "reading locks", err)
	}
	sort.Slice(held, func(i, j int) bool { return held[i].Key < held[j].Key })
	var rows [][]string
	var freed []string
	for _, l := range held {
		if !e.seesPlanID(ctx, c, l.Holder) {
			continue
		}
		asked, over := e.holder(ctx, l.Holder)
		if over {
			if err := e.st.Unlock(ctx, []string{l.Key}, l.Holder); err != nil {
				e.log.Error("freeing a stale lock", "key", l.Key, "holder", l.Holder, "err", err)
				continue
			}
			e.audit(ctx, store.Entry{Kind: "unlock", PlanID: l.Holder, Text: "freed stale lock " + l.Key + " (its run is not running)"})
			freed = append(freed, fmt.Sprintf("%s (run %s is not running any more)", l.Key, l.Holder))
			continue
		}
		rows = append(rows, []string{l.Key, "run " + l.Holder, asked, l.Since.UTC().Format("Jan 02 15:04 UTC")})
	}
	return said(render.Locks(rows, freed))
}

// holder says who asked for the plan or run id, and whether its lock is left over: the run is
// finished, or the plan never became a run and is no longer approved (an approved plan without
// a run is starting: it is re-planned before its run begins).
func (e *Engine) holder(ctx context.Context, id string) (asked string, over bool) {
	p, perr := e.st.Plan(ctx, id)
	if perr == nil {
		asked = "@" + p.Requester.Name
	}
	if r, err := e.st.Run(ctx, id); err == nil {
		return "@" + r.Requester, r.State != store.RunRunning
	}
	return asked, perr != nil || p.State != store.PlanApproved
}
