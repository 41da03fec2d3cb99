package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// maxRollbackInPost bounds the rollback's sentence in the run's post: a rollback that failed
// can carry a long error (Terraform's list of problems); the post keeps its head and sends
// the reader to `why`, which, like the log, has it whole.
const maxRollbackInPost = 600

// failureNotes close the post of a run that did not finish well: what was rolled back, what
// did not start, and advice that follows the cause of the failure (cause.go in executor): the
// request, a server that did not answer, a full disk, a timeout, or an outcome Eos did not see.
func failureNotes(r *store.Run, failed *executor.LayerResult) []string {
	var lines []string
	if failed.Rollback != "" && failed.Status != executor.ResultHalted && failed.Status != executor.ResultUnknown {
		lines = append(lines, "Rolled back: "+CutForPost(failed.Rollback, maxRollbackInPost, r.ID))
	}
	var notStarted []string
	for _, l := range r.Layers {
		if l.Status == executor.ResultNotStarted {
			notStarted = append(notStarted, l.Layer.Title())
		}
	}
	if len(notStarted) > 0 {
		lines = append(lines, strings.Join(notStarted, " and ")+" not started.")
	}
	return append(lines, advice(r, failed))
}

// advice is the closing sentence of a failed run's post.
func advice(r *store.Run, failed *executor.LayerResult) string {
	lock := fmt.Sprintf("the lock on %s/%s is released.", r.Target, r.Env)
	layer := failed.Layer.Title()
	switch failed.Status {
	case executor.ResultHalted:
		return "Eos stopped the run itself (not a failure of the layer), so nothing was rolled back. Ask again for a fresh plan; " + lock
	case executor.ResultUnknown:
		s := fmt.Sprintf("Eos did not see how %s ended, so nothing was rolled back.", layer)
		if failed.Check != "" {
			s += " Check with " + failed.Check + ";"
		}
		return s + fmt.Sprintf(" %s is marked for a drift check. Ask again only once you know what was applied; %s", r.Target, lock)
	case executor.ResultCancelled:
		return fmt.Sprintf("The run was cancelled while %s applied; nothing after it ran. Ask again for a fresh plan when you want it; %s", layer, lock)
	}
	c := causeOf(*failed)
	switch c.Kind {
	case executor.CauseServer:
		who := c.Server
		if c.Address != "" {
			who += " at " + c.Address
		}
		return fmt.Sprintf("%s did not answer, so this is not a fault of the request. Asking again once %s is back is safe: the new plan starts from what is there now; %s", upperFirst(who), c.Server, lock)
	case executor.CauseDisk:
		where := "at " + c.Path
		if c.Path == "" {
			where = "somewhere " + diskHint(failed.Layer) + " (the error does not say where)"
		}
		return fmt.Sprintf("A disk is full %s: no space left on device. Free space there, then ask again; %s", where, lock)
	case executor.CauseTimeout:
		return fmt.Sprintf("%s did not finish within the layer timeout: it may still be working. Check %s before asking again; if the work is only slow, raise layer_timeout in the configuration; %s", layer, layer, lock)
	case executor.CauseUnknown:
		return fmt.Sprintf("Eos could not tell why %s failed (@eos why %s has everything it recorded); %s", layer, r.ID, lock)
	}
	return "Fix the request and ask again; " + lock
}

// causeOf is the failed layer's cause: recorded by the runner, or, in runs recorded before it
// was, read from the error's text.
func causeOf(l executor.LayerResult) executor.Cause {
	if l.Cause != nil && l.Cause.Kind != "" {
		return *l.Cause
	}
	return executor.ClassifyText(l.Layer, l.Error)
}

// diskHint says where a layer's full disk is likely to be when its error names no path.
func diskHint(l executor.LayerName) string {
	switch l {
	case executor.Salt:
		return "on the minions Salt configures"
	case executor.Terraform:
		return "in Eos's Terraform working directory or on the provider's host"
	case executor.Nomad:
		return "on the Nomad clients"
	case executor.Vault:
		return "in Vault's storage"
	}
	return "where " + l.Title() + " writes"
}

// CutForPost keeps s whole when it is short, else its first n characters at a word boundary
// and where to read the rest.
func CutForPost(s string, n int, runID string) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := string(r[:n])
	if i := strings.LastIndex(head, " "); i > n/2 {
		head = head[:i]
	}
	return strings.TrimSpace(head) + fmt.Sprintf("… (whole: @eos why %s)", runID)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if r[0] >= 'a' && r[0] <= 'z' && !strings.HasPrefix(s, "salt-api") {
		r[0] -= 'a' - 'A'
	}
	return string(r)
}
