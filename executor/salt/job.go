package salt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
// Writing the same content-addressed file again is harmless, so it is retried while salt-api
// or the master restarts.
func (l *Layer) writeState(ctx context.Context, u executor.Unit, test bool, w *watch) (string, error) {
	path, sls, err := l.slsFor(u)
	if err != nil {
		return "", err
	}
	ret, err := l.read(ctx, test, w, map[string]any{
		"client": "wheel", "fun": "file_roots.write",
		"data": u.Salt.Text, "path": path, "saltenv": l.saltEnv,
	})
	if err != nil {
		return "", fmt.Errorf("writing %s to the Salt master: %w", path, err)
	}
	var wrote struct {
		Data struct {
			Return  any  `json:"return"`
			Success bool `json:"success"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ret[0], &wrote); err != nil {
		return "", fmt.Errorf("writing %s to the Salt master: reading the answer: %w", path, err)
	}
	msg := fmt.Sprint(wrote.Data.Return)
	if !wrote.Data.Success || !strings.HasPrefix(msg, "Wrote data to file") {
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

// job is a started state run; test says it is a dry run.
type job struct {
	jid     string
	minions []string
	test    bool
}

// watch receives what a run reports as it goes: a state that finished (from the event
// stream, when it is followed) and each minion's whole return (from /jobs).
type watch struct {
	// state gets a finished state of minion.
	state func(minion string, s stateResult)
	// ret gets a minion's return.
	ret func(minionReturn)
	// notice gets what the run waits for while it makes no progress ("salt-api not
	// answering for 40 s, retrying"), and passed when that wait ended ("salt-api answering
	// again").
	notice func(msg string, passed bool)
	// what names the run's states for an executor.UnknownError ("the 3 states").
	what string
}

// whatOf is how an unknown outcome names a job: "the 3 states of job J on node1".
func whatOf(w *watch, j job) string {
	what := "the states"
	if w != nil && w.what != "" {
		what = w.what
	}
	return fmt.Sprintf("%s of job %s on %s", what, j.jid, strings.Join(j.minions, ", "))
}

// onList is how a run names the minions a plan resolved its targets to: a list target.
func onList(on []string) (tgt, tgtType string, list []string) {
	return strings.Join(on, ","), "list", on
}

// runUnit writes the unit's state file, runs it on the minions on (nil: the unit's targets)
// and collects every minion's return. When the layer follows salt-api's event stream it first
// opens it (streams.go): a minion's return then arrives the moment it is sent, and with a watch
// that takes states (an apply) each state is reported as it finishes. If no stream can be
// opened the run is followed through /jobs alone.
func (l *Layer) runUnit(ctx context.Context, u executor.Unit, on []string, test bool, w *watch) ([]minionReturn, error) {
	var sls string
	progress := w != nil && w.state != nil
	es, err := l.openStreamWhile(ctx, u.Service, progress, func() (err error) {
		sls, err = l.writeState(ctx, u, test, w)
		return err
	})
	if err != nil {
		return nil, err
	}
	if es != nil {
		defer es.close()
	}
	j, err := l.startJob(ctx, u, on, sls, test, es != nil && progress, w)
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
		collect.state, collect.notice, collect.what = w.state, w.notice, w.what
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
