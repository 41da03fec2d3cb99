package bot

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// snoozeFor is how long a 🔕 keeps a service's drift out of the digests' list, unless the
// drift changes first.
const snoozeFor = 7 * 24 * time.Hour

// snoozeService answers a 🔕 on the post of env/service: its current drift, as last checked,
// is snoozed for snoozeFor by r's author. A redelivered 🔕 says nothing again.
func (e *Engine) snoozeService(ctx context.Context, a adapters.Adapter, r adapters.Reaction, key string) answer {
	env, service, _ := strings.Cut(key, "/")
	if ok, refusal := e.mayTriage(ctx, a, r, env, service, VerbSnooze, fmt.Sprintf("snooze %s in %s", service, env)); !ok {
		return refusal
	}
	hist, err := e.st.DriftHistory(ctx, key, 1)
	if err != nil {
		e.log.Error("reading drift history", "service", key, "err", err)
		return answer{}
	}
	if len(hist) == 0 || hist[0].Status == string(executor.DriftClean) {
		if e.once(onceKey(r, "snooze clean")) {
			return said(render.NothingToSnooze(service, env))
		}
		return answer{}
	}
	now := e.now()
	sn := store.Snooze{Key: key, User: r.User.Name, At: now, Until: now.Add(snoozeFor), Fingerprint: hist[0].Fingerprint}
	again, err := e.st.SnoozeDrift(ctx, sn)
	if err != nil {
		e.log.Error("recording a snooze", "service", key, "err", err)
		return answer{}
	}
	if again {
		return answer{}
	}
	e.audit(ctx, store.Entry{Kind: "snooze", User: r.User.Name, UserID: r.User.ID, Platform: a.Name(), Service: service, Env: env,
		Text: fmt.Sprintf("drift snoozed until %s (%s)", sn.Until.UTC().Format(time.RFC3339), hist[0].Summary)})
	return said(render.Snoozed(r.User.Name, sn.Until, service, env))
}

// liftSnooze answers the removal of a 🔕 on the post of env/service: the service's snooze
// ends, whoever made it, when the person who removed theirs could have snoozed it. A
// redelivered removal, or one when nothing is snoozed, says nothing.
func (e *Engine) liftSnooze(ctx context.Context, a adapters.Adapter, r adapters.Reaction, key string) answer {
	env, service, _ := strings.Cut(key, "/")
	ep := e.policy().For(env, VerbSnooze)
	if !ep.MayRequest(e.person(ctx, a, r.User, ep.Requesters)) {
		return answer{} // their 🔕 snoozed nothing, and was answered when it came
	}
	sn, err := e.st.LiftSnooze(ctx, key)
	if err != nil {
		e.log.Error("lifting a snooze", "service", key, "err", err)
		return answer{}
	}
	if sn == nil {
		return answer{}
	}
	hist, err := e.st.DriftHistory(ctx, key, 1)
	if err != nil || len(hist) == 0 || !sn.Holds(hist[0].Fingerprint, e.now()) {
		return answer{} // it had ended already: the service is in the digests anyway
	}
	e.audit(ctx, store.Entry{Kind: "unsnooze", User: r.User.Name, UserID: r.User.ID, Platform: a.Name(), Service: service, Env: env,
		Text: fmt.Sprintf("snooze by @%s until %s lifted (%s)", sn.User, sn.Until.UTC().Format(time.RFC3339), hist[0].Summary)})
	return said(render.SnoozeLifted(r.User.Name, service, env, sn.User, sn.Until))
}

// driftSnoozed answers `drift snoozed [in ENV]`: the snoozes that still hold, with who
// snoozed what and until when.
func (e *Engine) driftSnoozed(ctx context.Context, c conv, in *intents.Intent) answer {
	all, err := e.st.Snoozes(ctx)
	if err != nil {
		return e.fail(c, "reading snoozes", err)
	}
	now := e.now()
	var rows [][]string
	for _, sn := range all {
		env, service, _ := strings.Cut(sn.Key, "/")
		if in.Env != "" && env != in.Env || in.Noun != "" && service != in.Noun {
			continue
		}
		hist, err := e.st.DriftHistory(ctx, sn.Key, 1)
		if err != nil || len(hist) == 0 || !sn.Holds(hist[0].Fingerprint, now) {
			continue
		}
		rows = append(rows, []string{service, env, "@" + sn.User, render.Day(sn.Until), hist[0].Summary})
	}
	if len(rows) == 0 {
		return said(render.NothingSnoozed())
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0]+rows[i][1] < rows[j][0]+rows[j][1] })
	return said(render.SnoozedList(rows))

}
