package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// The short answers about an approved plan that does not run as approved: stopped, cancelled
// before its run, refused a start, changed meanwhile, or expired.

// CantStop refuses user's stop of run id: only its requester or an approver (who) may.
func CantStop(user, id, requester, who string) string {
	return fmt.Sprintf("@%s can't stop run %s: only @%s or an approver (%s) can. Nothing changed.", user, id, requester, who)
}

// CancelledBeforeRun says plan id was cancelled by user after its approval, before its run.
func CancelledBeforeRun(id, user string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s cancelled by @%s before its run started. Nothing changed.", id, user))
}

// StoppingAlready answers a second stop of run id, which asker asked to stop first.
func StoppingAlready(id, asker string) adapters.Doc {
	return Reply(fmt.Sprintf("Run %s is stopping already (asked by @%s).", id, asker))
}

// Stopping answers a stop of run id: where it stops, and that nothing is rolled back.
func Stopping(id string) adapters.Doc {
	return Reply(fmt.Sprintf("Stopping run %s at the next safe point: the layer applying now finishes, no later layer starts, nothing is rolled back.", id))
}

// NotStarted says approved plan id did not start, and what to do (advice, from the cause).
func NotStarted(id, advice string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s was approved but %s.", id, advice))
}

// StartBusy says approved plan id did not start because run holder holds key.
func StartBusy(id, key, holder string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s was approved but %s is busy with run %s. Nothing changed; remove and add your ✅ again when that run is done.",
		id, key, holder))
}

// ChangedSinceApproval says approved plan id no longer plans what was approved, because
// something else changed service in env: a fresh plan follows.
func ChangedSinceApproval(id, service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s changed since it was approved (something else changed %s in %s meanwhile): nothing was applied. The request is answered again below, as things stand now; a new plan needs approval again.",
		id, service, env))
}

// Expired says plan id expired at at without approval.
func Expired(id string, at time.Time) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s expired at %s without approval: nothing changed. Ask again for a fresh plan.", id, at.UTC().Format("15:04 UTC")))
}

// Stopped is the result of a run that stopped because by asked: "Run X stopped by @bob
// after Terraform; Nomad not started; nothing rolled back."
func Stopped(r *store.Run, by string) adapters.Doc {
	var after string
	var notStarted, lines []string
	for _, l := range r.Layers {
		switch l.Status {
		case executor.ResultOK:
			after = l.Layer.Title()
		case executor.ResultNotStarted:
			notStarted = append(notStarted, l.Layer.Title())
		}
		lines = append(lines, ResultLine(l))
	}
	text := fmt.Sprintf("Run %s stopped by @%s", r.ID, by)
	if after != "" {
		text += " after " + after
	} else {
		text += " before it applied anything"
	}
	if len(notStarted) > 0 {
		text += "; " + strings.Join(notStarted, " and ") + " not started"
	}
	text += "; nothing rolled back."
	next := fmt.Sprintf("The lock on %s/%s is released.", r.Target, r.Env)
	if after != "" {
		next += fmt.Sprintf(" What was applied stays: @eos drift %s shows where it stands, @eos rollback %s plans undoing it.", r.Target, r.Target)
	}
	return adapters.NewDoc(adapters.Text{Text: text}, adapters.Context{Text: strings.Join(lines, " · ")}, adapters.Context{Text: next})
}

// UnstoppedNote is added to the result of a run someone asked to stop too late: its last
// layer was applying already, so there was no safe point left to stop at.
func UnstoppedNote(doc adapters.Doc, by string) adapters.Doc {
	doc.Blocks = append(doc.Blocks, adapters.Context{Text: fmt.Sprintf("@%s asked to stop this run while its last layer applied: there was no later layer to stop before.", by)})
	return doc
}
