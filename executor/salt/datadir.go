package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/executor"
)

// The minion's eos_data_dir is text the reader sees. The blueprints' local variants manage
// their files under it (a setting of the minion's own configuration, purge.go), and no
// blueprint says it, so the masks (namemask.go, diffmask.go) would take it for a value the
// reader never sees: "<secret masked>/data/srv/grafana/grafana.ini". It is not a secret: it
// is where the minion keeps what Eos puts on it, read by Eos from the minion. So a dry run
// knows each minion's eos_data_dir, and the masks take it, as they take the minion's name, as
// text the reader sees: the path shows whole. A minion whose eos_data_dir cannot be read masks
// as before.
//
// It is read once per minion (config.get) and kept for the life of the layer: a minion's
// configuration changes with a restart of the minion at most, and a path that shows in one
// plan and is masked in the next would change the plan's hash for nothing. The read goes out
// after the dry run's test.ping has answered and before its test job, never beside another
// job: a Salt 3006 minion drops one of two jobs published to it at the same moment
// (saltstack/salt#63217). Only a dry run's first sight of a minion pays that round trip.

// dataDirCache is the layer's minion → eos_data_dir, "" for a minion that answered without one.
type dataDirCache struct {
	mu   sync.Mutex
	dirs map[string]string
}

// dataDirsFor returns minion → eos_data_dir for the minions ons names, reading those not known
// yet in one config.get (bounded by the ping timeout). A minion that does not answer is left
// out, and asked again by the next dry run.
func (l *Layer) dataDirsFor(ctx context.Context, ons [][]string) map[string]string {
	l.dirs.mu.Lock()
	if l.dirs.dirs == nil {
		l.dirs.dirs = map[string]string{}
	}
	out := map[string]string{}
	var missing []string
	for _, on := range ons {
		for _, m := range on {
			if d, ok := l.dirs.dirs[m]; ok {
				out[m] = d
			} else if !slices.Contains(missing, m) {
				missing = append(missing, m)
			}
		}
	}
	l.dirs.mu.Unlock()
	if len(missing) == 0 {
		return out
	}
	slices.Sort(missing)
	rctx, cancel := context.WithTimeout(ctx, 2*l.pingTimeout)
	defer cancel()
	got, answered, err := l.dataDirsOf(rctx, strings.Join(missing, ","), "list")
	if err != nil {
		executor.Log(ctx, l.log).Debug("cannot read the minions' eos_data_dir; paths under it stay masked", "minions", missing, "err", err)
		return out
	}
	l.dirs.mu.Lock()
	defer l.dirs.mu.Unlock()
	for _, m := range answered {
		l.dirs.dirs[m] = got[m]
		out[m] = got[m]
	}
	return out
}

// knownDataDir is minion's eos_data_dir as a dry run of this layer read it, "" when unknown:
// an apply's progress masks with it as the plan did (the re-plan before an apply reads it).
func (l *Layer) knownDataDir(minion string) string {
	l.dirs.mu.Lock()
	defer l.dirs.mu.Unlock()
	return l.dirs.dirs[minion]
}

// setDataDirs sets each return's DataDir from dirs.
func setDataDirs(runs []unitRun, dirs map[string]string) {
	for _, r := range runs {
		for i := range r.rets {
			r.rets[i].DataDir = dirs[r.rets[i].Minion]
		}
	}
}

// dataDirsOf asks the minions tgt matches for their eos_data_dir (config.get, which reads
// the minion's configuration), retrying while salt-api or the master restarts as test.ping
// does. It returns the absolute paths by minion, and the minions that answered (with a path
// or without one); a minion that does not answer (salt-api's local client gives it the text
// "Minion did not return…") is neither.
func (l *Layer) dataDirsOf(ctx context.Context, tgt, tgtType string) (dirs map[string]string, answered []string, err error) {
	ret, err := l.read(ctx, true, nil, map[string]any{
		"client": "local", "tgt": tgt, "tgt_type": tgtType, "fun": "config.get", "arg": []any{"eos_data_dir"},
		"timeout": int(l.pingTimeout.Round(time.Second) / time.Second),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("config.get eos_data_dir on %s: %w", tgt, err)
	}
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(ret[0], &answers)
	dirs = map[string]string{}
	for m, a := range answers {
		var dir string
		if json.Unmarshal(a, &dir) != nil || strings.HasPrefix(dir, "Minion did not return") {
			continue
		}
		answered = append(answered, m)
		if strings.HasPrefix(dir, "/") {
			dirs[m] = dir
		}
	}
	return dirs, answered, nil
}
