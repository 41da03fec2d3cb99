package web

import (
	"fmt"
	"github.com/eosbot/eos/bot/runwatch"
	"slices"
	"strings"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// progressRow is one layer of a run as its page shows it.
type progressRow struct {
	Layer   executor.LayerName
	Title   string
	Status  string
	Message string
	Done    int
	Total   int
}

// runProgress is what a run's page shows and its event stream keeps up to date: a row per
// layer, the run's state, and the layers' output so far.
type runProgress struct {
	State string
	Rows  []progressRow
	Lines []string
}

// progressOf starts from what the store knows: the run's layer results, or the plan's layers
// waiting to start.
func progressOf(r *store.Run, p *store.Plan) runProgress {
	out := runProgress{State: string(r.State)}
	for _, lr := range r.Layers {
		out.Rows = append(out.Rows, progressRow{Layer: lr.Layer, Title: lr.Layer.Title(), Status: string(lr.Status),
			Message: resultMessage(lr), Done: lr.Done, Total: lr.Total})
	}
	if p != nil {
		for _, lp := range p.Plan.Layers {
			if !slices.ContainsFunc(out.Rows, func(row progressRow) bool { return row.Layer == lp.Layer }) {
				out.Rows = append(out.Rows, progressRow{Layer: lp.Layer, Title: lp.Layer.Title(), Status: "waiting", Message: lp.Summary})
			}
		}
	}
	return out
}

func resultMessage(lr executor.LayerResult) string {
	switch {
	case lr.Error != "" && lr.Failed != nil:
		return fmt.Sprintf("%s %s: %s", lr.Failed.Unit, lr.Failed.Address, lr.Error)
	case lr.Error != "" && lr.Check != "":
		return lr.Error + " · check with " + lr.Check
	case lr.Error != "":
		return lr.Error
	case lr.Rollback != "":
		return lr.Summary + " · rolled back: " + lr.Rollback
	}
	return lr.Summary
}

// apply adds one live update to the progress.
func (rp *runProgress) apply(u runwatch.RunUpdate) {
	if u.Line != "" {
		line := u.Line
		if u.Layer != "" {
			line = u.Layer.Title() + ": " + line
		}
		rp.Lines = append(rp.Lines, line)
	}
	if ev := u.Event; ev.Layer != "" {
		i := slices.IndexFunc(rp.Rows, func(row progressRow) bool { return row.Layer == ev.Layer })
		if i < 0 {
			rp.Rows = append(rp.Rows, progressRow{Layer: ev.Layer, Title: ev.Layer.Title()})
			i = len(rp.Rows) - 1
		}
		row := &rp.Rows[i]
		row.Status = "running"
		if ev.Rollback {
			row.Status = "rolling back"
		}
		row.Done, row.Total = ev.Done, ev.Total
		row.Message = eventText(ev)
	}
}

// eventText is a progress step in a few words: "grafana: creating eoslab_server.main".
func eventText(ev executor.Event) string {
	msg := ev.Message
	if ev.Resource != "" && !strings.Contains(msg, ev.Resource) {
		msg = strings.TrimSpace(msg + " " + ev.Resource)
	}
	if ev.Unit != "" && !strings.HasPrefix(msg, ev.Unit) {
		msg = ev.Unit + ": " + msg
	}
	return msg
}

// addStored adds output lines read from the store, as apply adds live ones.
func (rp *runProgress) addStored(lines []store.OutputLine) {
	for _, l := range lines {
		rp.apply(runwatch.RunUpdate{Layer: executor.LayerName(l.Layer), Line: l.Text})
	}
}
