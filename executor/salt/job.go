package salt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// firstPoll is the wait before the first look at a job; later waits double up to the
// configured PollInterval.
const firstPoll = 250 * time.Millisecond

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

// startRun writes the unit's state file and starts state.apply of it on the unit's targets
// with the pillar as data (test=True for a dry run), asynchronously.
func (l *Layer) startRun(ctx context.Context, u executor.Unit, test bool) (job, error) {
	sls, err := l.writeState(ctx, u)
	if err != nil {
		return job{}, err
	}
	tgt, tgtType, list := l.target(u)
	pillar := u.Salt.Pillar
	if pillar == nil {
		pillar = map[string]any{}
	}
	ret, err := l.api.lowstate(ctx, map[string]any{
		"client": "local_async", "tgt": tgt, "tgt_type": tgtType,
		"fun": "state.apply", "arg": []any{sls},
		"kwarg": map[string]any{"pillar": pillar, "test": test, "saltenv": l.saltEnv},
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
	executor.Log(ctx, l.log).Info("started state.apply", "unit", u.Service, "sls", sls, "jid", started.JID, "minions", started.Minions, "test", test)
	return job{jid: started.JID, minions: started.Minions}, nil
}

// follow polls /jobs/<jid> until every minion of j has returned, handing each return to
// onReturn as it arrives (minions returning in the same poll in name order). Minions that have
// not returned when the timeout passes are reported as unreachable.
func (l *Layer) follow(ctx context.Context, j job, onReturn func(minionReturn)) error {
	deadline := l.now().Add(l.timeout)
	seen := map[string]bool{}
	wait := firstPoll
	for {
		var out struct {
			Return []map[string]json.RawMessage `json:"return"`
		}
		if err := l.api.call(ctx, http.MethodGet, "/jobs/"+url.PathEscape(j.jid), nil, &out); err != nil {
			return fmt.Errorf("following job %s: %w", j.jid, err)
		}
		if len(out.Return) > 0 {
			for _, m := range j.minions {
				raw, ok := out.Return[0][m]
				if !ok || seen[m] {
					continue
				}
				seen[m] = true
				onReturn(parseReturn(m, raw))
			}
		}
		if len(seen) == len(j.minions) {
			return nil
		}
		left := deadline.Sub(l.now())
		if left <= 0 {
			var missing []string
			for _, m := range j.minions {
				if !seen[m] {
					missing = append(missing, m)
				}
			}
			return fmt.Errorf("minion %s did not return within %s (unreachable, or still running job %s)", strings.Join(missing, ", "), l.timeout, j.jid)
		}
		t := time.NewTimer(min(wait, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, l.poll)
	}
}

// runUnit starts a run and collects every minion's return.
func (l *Layer) runUnit(ctx context.Context, u executor.Unit, test bool, onReturn func(minionReturn)) ([]minionReturn, error) {
	j, err := l.startRun(ctx, u, test)
	if err != nil {
		return nil, err
	}
	var rets []minionReturn
	err = l.follow(ctx, j, func(m minionReturn) {
		rets = append(rets, m)
		if onReturn != nil {
			onReturn(m)
		}
	})
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
