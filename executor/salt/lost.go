package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// A minion's return is lost when the master is away as the minion sends it (the minion
// retries it a few times, then gives up), and a job whose return was lost would otherwise be
// waited for until the layer's timeout. So a minion that has shown nothing for waitNotice is
// asked whether it still runs the job (saltutil.find_job, which answers {} for a job the
// minion is not running). A minion that says twice, waitNotice apart, that it does not run the
// job, while /jobs still has no return from it, either finished it while the master was away
// or never received it: the apply's end is unknown, and waiting longer would not tell more. A
// minion that does not answer is waited for, as before, until the timeout.

// checkLost does that check when it is due; it returns an executor.UnknownError when a
// minion's return was lost, nil otherwise (and when the check itself fails: it only shortens
// the wait, and the timeout still ends it).
func (f *follower) checkLost(ctx context.Context) error {
	now := f.l.now()
	if f.j.test || now.Sub(f.progress) < f.l.waitNotice || now.Sub(f.checked) < f.l.waitNotice {
		return nil
	}
	f.checked = now
	missing := f.missing()
	running, err := f.l.runsJob(ctx, f.j.jid, missing)
	if err != nil {
		executor.Log(ctx, f.l.log).Warn("cannot ask the minions whether they still run the job", "jid", f.j.jid, "err", err)
		return nil
	}
	if f.idle == nil {
		f.idle = map[string]time.Time{}
	}
	executor.Log(ctx, f.l.log).Info("asked the silent minions whether they still run the job", "jid", f.j.jid, "running", running)
	var lost []string
	for _, m := range missing {
		answer, ok := running[m]
		if answer {
			f.heard[m] = true
		}
		if !ok || answer {
			delete(f.idle, m) // still running it, or did not answer
			continue
		}
		since, seen := f.idle[m]
		if !seen {
			f.idle[m] = now
			continue
		}
		if now.Sub(since) >= f.l.waitNotice {
			lost = append(lost, m)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	// A last full look at /jobs: the poll before may have taken only the returns the stream
	// announced, and a return may have come since.
	if err := f.poll(ctx, true); err != nil {
		return nil
	}
	lost = slices.DeleteFunc(lost, func(m string) bool { return f.seen[m] })
	if len(lost) == 0 {
		return nil
	}
	executor.Log(ctx, f.l.log).Warn("a minion does not run the job, and no return from it reached the master", "jid", f.j.jid, "minions", lost)
	why := "lost while the master was away, or the job never reached the minion"
	if f.troubled() {
		why = "lost while the master was away: " + f.meanwhile()
	}
	return executor.Unknown(whatOf(f.w, f.j), "salt-run jobs.lookup_jid "+f.j.jid, fmt.Errorf(
		"minion %s does not run job %s, and no return from it reached the master (%s)", strings.Join(lost, ", "), f.j.jid, why))
}

// runsJob asks minions whether they run job jid (saltutil.find_job, client local): true for
// one that does, false for one that answered {} (it does not), and no entry for one that did
// not answer.
func (l *Layer) runsJob(ctx context.Context, jid string, minions []string) (map[string]bool, error) {
	tgt, tgtType, _ := onList(minions)
	ret, err := l.api.lowstate(ctx, map[string]any{
		"client": "local", "tgt": tgt, "tgt_type": tgtType, "fun": "saltutil.find_job", "arg": []any{jid},
		"timeout": int(l.pingTimeout.Round(time.Second) / time.Second),
	})
	if err != nil {
		return nil, fmt.Errorf("saltutil.find_job %s on %s: %w", jid, tgt, err)
	}
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(ret[0], &answers)
	out := map[string]bool{}
	for m, a := range answers {
		var job map[string]any
		if json.Unmarshal(a, &job) != nil {
			continue // "Minion did not return. [No response]"
		}
		out[m] = len(job) > 0
	}
	return out, nil
}
