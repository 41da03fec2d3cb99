package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// StatusView is what `status [SERVICE] [in ENV]` found, for the asker's eyes only.
type StatusView struct {
	// Service and Env are as asked; empty when not named.
	Service, Env string
	// Deployed are the declared services by environment, one row each: service, declared by,
	// since, values, and what runs now when Service is named.
	Deployed map[string][][]string
	// Left are the runs that did not finish well, by env/service, with what they left.
	Left map[string]LeftRun
	// Pending are the plans waiting for approval, oldest first.
	Pending []*store.Plan
	// Running are the locks of the runs in flight.
	Running []store.Lock
}

// LeftRun is the latest run of a service, which did not end done, and the recorded check of
// its unknown outcome (nil while it is pending, or when it has none).
type LeftRun struct {
	Run   *store.Run
	Check *store.Entry
}

// Status answers `status`: what is deployed where, what runs left behind, what waits for
// approval and what runs now; one sentence when there is nothing of that.
func Status(v StatusView) adapters.Doc {
	// An empty answer says which environment it is about: the one asked for, or all of them.
	if len(v.Deployed) == 0 && len(v.Pending) == 0 && len(v.Running) == 0 && len(v.Left) == 0 {
		return NothingDeployed(v.Service, v.Env)
	}
	where := " yet"
	if v.Env != "" {
		where = " in " + v.Env
	}
	var blocks []adapters.Block
	if len(v.Deployed) > 0 {
		header := []string{"service", "declared by", "since", "values"}
		if v.Service != "" {
			header = append(header, "running now")
		}
		for _, env := range slices.Sorted(maps.Keys(v.Deployed)) {
			blocks = append(blocks, adapters.Heading{Text: "Deployed in " + env}, adapters.Table{Header: header, Rows: v.Deployed[env]})
		}
	} else if v.Service != "" && len(v.Left) > 0 {
		blocks = append(blocks, adapters.Text{Text: v.Service + " has no declared state" + where + ": its last run did not finish."})
	} else {
		blocks = append(blocks, adapters.Text{Text: "Nothing deployed" + where + "."})
	}
	for _, k := range slices.Sorted(maps.Keys(v.Left)) {
		r := v.Left[k].Run
		env, service, _ := strings.Cut(k, "/")
		blocks = append(blocks, adapters.Text{Text: fmt.Sprintf("What run %s (%s %s, %s at %s) left of %s in %s:",
			r.ID, r.Verb, r.Target, r.State, r.Finished.UTC().Format("Jan 02 15:04 UTC"), service, env)},
			adapters.List{Items: LeftItems(r, v.Left[k].Check)})
	}
	if len(v.Pending) > 0 {
		var items []string
		for _, p := range v.Pending {
			items = append(items, fmt.Sprintf("Plan %s · %s · asked by @%s · expires %s", p.ID, RequestLine(p.Plan.Spec),
				p.Requester.Name, p.Expires.UTC().Format("15:04 UTC")))
		}
		blocks = append(blocks, adapters.Text{Text: "Waiting for approval:"}, adapters.List{Items: items})
	}
	if len(v.Running) > 0 {
		var items []string
		for _, l := range v.Running {
			items = append(items, fmt.Sprintf("%s: run %s since %s", l.Key, l.Holder, l.Since.UTC().Format("15:04 UTC")))
		}
		blocks = append(blocks, adapters.Text{Text: "Running now:"}, adapters.List{Items: items})
	}
	if v.Service == "" && len(v.Deployed) > 0 {
		blocks = append(blocks, adapters.Context{Text: "@eos status SERVICE also shows what runs now"})
	}
	return adapters.NewDoc(blocks...)
}

// LeftItems say, layer by layer, what run r left in its service: what applied before the
// failure and stays (the failed-layer policy keeps it), how the failed layer's rollback went,
// what an outcome Eos did not see is waiting for (check: its recorded check, nil while
// pending), and what did not start.
func LeftItems(r *store.Run, check *store.Entry) []string {
	var failed *executor.LayerResult
	for i := range r.Layers {
		switch r.Layers[i].Status {
		case executor.ResultFailed, executor.ResultUnknown, executor.ResultCancelled, executor.ResultHalted:
			failed = &r.Layers[i]
		}
	}
	var items []string
	for _, l := range r.Layers {
		t := l.Layer.Title()
		switch l.Status {
		case executor.ResultOK:
			if failed != nil && strings.Contains(failed.Rollback, "; "+t+": ") {
				items = append(items, t+": applied, then rolled back with the failed layer (policy: all)")
				continue
			}
			s := t + ": applied and kept"
			if l.Summary != "" {
				s += " (" + l.Summary + ")"
			}
			switch {
			case failed == nil || failed.Status != executor.ResultFailed:
				// stopped, cancelled or unknown later: nothing was rolled back at all
			case strings.HasPrefix(failed.Rollback, "not rolled back"):
				s += ": nothing is rolled back (policy: none)"
			default:
				s += ": a failed run undoes only the layer that failed (policy: failed-layer)"
			}
			items = append(items, s)
		case executor.ResultFailed:
			items = append(items, t+": "+failedLeft(l, r.ID))
		case executor.ResultUnknown:
			s := fmt.Sprintf("outcome of run %s unknown in %s: ", r.ID, t)
			if check != nil {
				s += "checked at " + check.At.UTC().Format("Jan 02 15:04 UTC") + ": " + check.Text
			} else {
				s += "drift check pending"
				if l.Check != "" {
					s += " · check by hand with " + l.Check
				}
			}
			items = append(items, s)
		case executor.ResultCancelled, executor.ResultRunning:
			items = append(items, t+": cut short mid-apply, not rolled back: what it applied before stays")
		case executor.ResultHalted:
			items = append(items, t+": stopped before changing anything")
		case executor.ResultNotStarted:
			items = append(items, t+": not started")
		}
	}
	return items
}

// failedLeft says what a failed layer left: nothing when its rollback worked, what it had
// applied when the policy kept it or the rollback itself failed.
func failedLeft(l executor.LayerResult, runID string) string {
	switch {
	case l.RolledBack:
		return "failed and rolled back: " + l.Rollback
	case strings.HasPrefix(l.Rollback, "not rolled back"):
		return "failed, " + l.Rollback + ": what it applied before failing stays"
	case strings.HasPrefix(l.Rollback, "rollback failed"):
		return "failed, and its rollback failed too: what it applied may remain (@eos why " + runID + " has the error whole)"
	}
	return "failed: " + CutForPost(l.Error, 200, runID)
}
