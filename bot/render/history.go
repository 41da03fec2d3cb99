package render

import (
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// History answers `history [service] [in env]`: runs, newest first, of service ("" for every
// service) in env ("" for every environment), and how many older ones are not shown (more).
func History(runs []*store.Run, service, env string, more int) adapters.Doc {
	var rows [][]string
	for _, r := range runs {
		took := ""
		if !r.Finished.IsZero() {
			took = humanDuration(r.Finished.Sub(r.Started))
		}
		outcome := string(r.State)
		if r.State == store.RunFailed && UnknownLayer(r) != nil {
			outcome = "outcome unknown" // not failed: Eos did not see how a layer ended
		}
		rows = append(rows, []string{r.ID, r.Started.UTC().Format("Jan 02 15:04"), r.Verb + " " + r.Target, r.Env, outcome, took,
			"@" + r.Requester + " → " + Mentions(r.Approvers)})
	}
	title := "History"
	if service != "" {
		title += " of " + service
	}
	if env != "" {
		title += " in " + env
	}
	blocks := []adapters.Block{adapters.Heading{Text: title},
		adapters.Table{Header: []string{"run", "started (UTC)", "what", "env", "outcome", "took", "asked → approved"}, Rows: rows}}
	if more > 0 {
		blocks = append(blocks, adapters.Context{Text: fmt.Sprintf("%d older runs not shown · eos audit --json for everything", more)})
	}
	return adapters.NewDoc(blocks...)
}
