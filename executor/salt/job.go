package salt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// slsFor names a unit's state file by its content: "eos/nextcloud_1a2b3c4d5e6f.sls" in the
// file_roots and "eos.nextcloud_1a2b3c4d5e6f" as an sls name. A new text gets a new name, so
// a plan and its apply always run the same text even if another spec changed it since.
func (l *Layer) slsFor(u executor.Unit) (path, sls string, err error) {
	if !isName(u.Service) {
		return "", "", fmt.Errorf("service name %q cannot name a Salt state", u.Service)
	}
	sum := sha256.Sum256([]byte(u.Salt.Text))
	base := u.Service + "_" + hex.EncodeToString(sum[:6])
	return l.stateDir + "/" + base + ".sls", strings.ReplaceAll(l.stateDir, "/", ".") + "." + base, nil
}

// writeState puts a unit's state file into the master's file_roots (wheel file_roots.write).
func (l *Layer) writeState(ctx context.Context, u executor.Unit) (string, error) {
	path, sls, err := l.slsFor(u)
	if err != nil {
		return "", err
	}
	ret, err := l.api.lowstate(ctx, map[string]any{
		"client": "wheel", "fun": "file_roots.write",
		"data": u.Salt.Text, "path": path, "saltenv": l.saltEnv,
	})
	if err != nil {
		return "", fmt.Errorf("writing %s to the Salt master: %w", path, err)
	}
	var w struct {
		Data struct {
			Return  any  `json:"return"`
			Success bool `json:"success"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ret[0], &w); err != nil {
		return "", fmt.Errorf("writing %s to the Salt master: reading the answer: %w", path, err)
	}
	msg := fmt.Sprint(w.Data.Return)
	if !w.Data.Success || !strings.HasPrefix(msg, "Wrote data to file") {
		return "", fmt.Errorf("writing %s to the Salt master: %s", path, msg)
	}
	return sls, nil
}

// target turns a unit's targets (or the default) into salt's tgt and tgt_type.
func (l *Layer) target(u executor.Unit) (tgt, tgtType string, list []string) {
	ts := u.Salt.Targets
	if len(ts) == 0 {
		ts = l.targets
	}
	if len(ts) == 1 && strings.ContainsAny(ts[0], "*?[") {
		return ts[0], "glob", nil
	}
	return strings.Join(ts, ","), "list", ts
}

// job is a started state run.
type job struct {
	jid     string
	minions []string
}

// watch receives what a run reports as it goes: a state that finished (from the event
// stream, when it is followed) and each minion's whole return (from /jobs).
type watch struct {
	// state gets a finished state of minion.
	state func(minion string, s stateResult)
	// ret gets a minion's return.
	ret func(minionReturn)
}

// onList is how a run names the minions a plan resolved its targets to: a list target.
func onList(on []string) (tgt, tgtType string, list []string) {
	return strings.Join(on, ","), "list", on
}

// startJob starts state.apply of sls on the minions on (or, when nil, the unit's targets) with
// the pillar as data (test=True for a dry run), asynchronously; stateEvents asks the minions
// to fire an event per state.
func (l *Layer) startJob(ctx context.Context, u executor.Unit, on []string, sls string, test, stateEvents bool) (job, error) {
	tgt, tgtType, list := l.target(u)
	if on != nil {
		tgt, tgtType, list = onList(on)
	}
	pillar := u.Salt.Pillar
	if pillar == nil {
		pillar = map[string]any{}
	}
	// queue: a minion already running states (another unit's, a scheduled highstate) runs
	// this one after it instead of refusing it; the layer's timeout still bounds the wait.
	kwarg := map[string]any{"pillar": pillar, "test": test, "saltenv": l.saltEnv, "queue": true}
	if stateEvents {
		kwarg["state_events"] = true
	}
	ret, err := l.api.lowstate(ctx, map[string]any{
		"client": "local_async", "tgt": tgt, "tgt_type": tgtType,
		"fun": "state.apply", "arg": []any{sls}, "kwarg": kwarg,
	})
	if err != nil {
		return job{}, fmt.Errorf("starting state.apply %s on %s: %w", sls, tgt, err)
	}
	var started struct {
		JID     string   `json:"jid"`
		Minions []string `json:"minions"`
	}
	// No matching minion makes salt-api return an empty string or object instead.
	_ = json.Unmarshal(ret[0], &started)
	if started.JID == "" || len(started.Minions) == 0 {
		return job{}, fmt.Errorf("no minion matches %s %q (are their keys accepted on the master?)", tgtType, tgt)
	}
	if missing := minus(list, started.Minions); len(missing) > 0 {
		return job{}, fmt.Errorf("minion %s is not known to the Salt master (no accepted key)", strings.Join(missing, ", "))
	}
	sort.Strings(started.Minions)
	executor.Log(ctx, l.log).Info("started state.apply", "unit", u.Service, "sls", sls, "jid", started.JID, "minions", started.Minions, "test", test, "state_events", stateEvents)
	return job{jid: started.JID, minions: started.Minions}, nil
}

// runUnit writes the unit's state file, runs it on the minions on (nil: the unit's targets)
// and collects every minion's return. With a watch that takes states (an apply) it first opens the event stream,
// when the layer follows it, so that each state can be reported as it finishes; if the stream
// cannot be opened the run is followed through /jobs alone.
func (l *Layer) runUnit(ctx context.Context, u executor.Unit, on []string, test bool, w *watch) ([]minionReturn, error) {
	sls, err := l.writeState(ctx, u)
	if err != nil {
		return nil, err
	}
	var es *eventStream
	if l.events && w != nil && w.state != nil {
		es, err = l.api.openEvents(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			executor.Log(ctx, l.log).Warn("cannot follow salt-api's event stream; progress will come per minion from /jobs", "unit", u.Service, "err", err)
			es = nil
		} else {
			defer es.close()
		}
	}
	j, err := l.startJob(ctx, u, on, sls, test, es != nil)
	if err != nil {
		return nil, err
	}
	var rets []minionReturn
	collect := &watch{ret: func(m minionReturn) {
		rets = append(rets, m)
		if w != nil && w.ret != nil {
			w.ret(m)
		}
	}}
	if w != nil {
		collect.state = w.state
	}
	err = l.follow(ctx, j, es, collect)
	return rets, err
}

// minus returns the elements of a not in b.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
