package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// DefaultPingTimeout bounds the test.ping that resolves a unit's targets before a dry run.
const DefaultPingTimeout = 10 * time.Second

// ping runs test.ping synchronously (client local) on tgt and returns the minions that
// answered and those the master expected but that did not answer within the layer's ping
// timeout: salt-api's local client gives each of those "Minion did not return. [No
// response]…" instead of true. Salt 3006 answers the same for the IDs of a list target that
// have no accepted key; resolve tells those apart.
func (l *Layer) ping(ctx context.Context, tgt, tgtType string) (up, silent []string, err error) {
	ret, err := l.read(ctx, true, nil, map[string]any{
		"client": "local", "tgt": tgt, "tgt_type": tgtType, "fun": "test.ping",
		"timeout": int(l.pingTimeout.Round(time.Second) / time.Second),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("test.ping on %s: %w", tgt, err)
	}
	// No matching minion makes salt-api answer an empty object (or string).
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(ret[0], &answers)
	for m, a := range answers {
		if strings.TrimSpace(string(a)) == "true" {
			up = append(up, m)
		} else {
			silent = append(silent, m)
		}
	}
	sort.Strings(up)
	sort.Strings(silent)
	return up, silent, nil
}

// resolve turns a unit's targets into the minions a plan runs on: a glob becomes the minions
// that answered test.ping when the plan was made, so the plan (and its hash) says exactly
// which hosts it configures. A target that matched but did not answer fails the plan before
// anything runs, as does one the master does not know.
func (l *Layer) resolve(ctx context.Context, u executor.Unit) ([]string, error) {
	tgt, tgtType, list := l.target(u)
	up, silent, err := l.ping(ctx, tgt, tgtType)
	if err != nil {
		return nil, err
	}
	if len(silent) > 0 && tgtType == "list" {
		accepted, err := l.acceptedKeys(ctx)
		if err != nil {
			return nil, err
		}
		silent = minus(silent, minus(silent, accepted))
	}
	if len(silent) > 0 {
		return nil, fmt.Errorf("minion %s did not answer test.ping within %s (targets %s %q); nothing was run",
			strings.Join(silent, ", "), l.pingTimeout, tgtType, tgt)
	}
	if missing := minus(list, up); len(missing) > 0 {
		return nil, fmt.Errorf("minion %s is not known to the Salt master (no accepted key)", strings.Join(missing, ", "))
	}
	if len(up) == 0 {
		return nil, fmt.Errorf("no minion matches %s %q (are their keys accepted on the master?)", tgtType, tgt)
	}
	return up, nil
}

// newcomers lists the minions that match a unit's glob now but were not part of its plan:
// they joined since, and an apply of that plan does not configure them.
func (l *Layer) newcomers(ctx context.Context, u executor.Unit, planned []string) []string {
	tgt, tgtType, _ := l.target(u)
	if tgtType != "glob" {
		return nil
	}
	up, silent, err := l.ping(ctx, tgt, tgtType)
	if err != nil {
		executor.Log(ctx, l.log).Warn("cannot tell whether minions joined since the plan", "unit", u.Service, "err", err)
		return nil
	}
	all := append(up, silent...)
	sort.Strings(all)
	return minus(all, planned)
}

// targetNote is the preview's note on how a glob was resolved: "targets web* = node1, node2".
func targetNote(tgt string, minions []string) string {
	return fmt.Sprintf("targets %s = %s", tgt, strings.Join(minions, ", "))
}

// acceptedKeys lists the minions whose keys the master accepted (wheel key.list_all).
func (l *Layer) acceptedKeys(ctx context.Context) ([]string, error) {
	ret, err := l.read(ctx, true, nil, map[string]any{"client": "wheel", "fun": "key.list_all"})
	if err != nil {
		return nil, fmt.Errorf("listing the master's minion keys: %w", err)
	}
	var w struct {
		Data struct {
			Return struct {
				Minions []string `json:"minions"`
			} `json:"return"`
			Success bool `json:"success"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ret[0], &w); err != nil || !w.Data.Success {
		return nil, fmt.Errorf("listing the master's minion keys: unexpected answer %s", excerpt(ret[0]))
	}
	return w.Data.Return.Minions, nil
}
