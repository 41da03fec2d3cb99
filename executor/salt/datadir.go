package salt

import (
	"context"
	"encoding/json"
	"fmt"
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
// reads each minion's eos_data_dir (config.get) beside the test.ping that resolves its
// targets, and the masks take it, as they take the minion's name, as text the reader sees:
// the path shows whole. A minion whose eos_data_dir cannot be read masks as before.

// dataDirReads are the config.get eos_data_dir of a dry run's targets, going out beside
// their test.pings.
type dataDirReads struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	dirs   map[string]string
}

// readDataDirs starts one config.get eos_data_dir for each target ({tgt, tgt_type}), side
// by side, bounded by the ping timeout: the dry run's state jobs do not wait for them, only
// the plan built from their returns does (dataDirReads.wait).
func (l *Layer) readDataDirs(ctx context.Context, targets [][2]string) *dataDirReads {
	ctx, cancel := context.WithTimeout(ctx, 2*l.pingTimeout)
	r := &dataDirReads{cancel: cancel, dirs: map[string]string{}}
	for _, t := range targets {
		r.wg.Go(func() {
			dirs, err := l.dataDirsOf(ctx, t[0], t[1])
			if err != nil {
				executor.Log(ctx, l.log).Debug("cannot read the minions' eos_data_dir; paths under it stay masked", "target", t[0], "err", err)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			for m, d := range dirs {
				r.dirs[m] = d
			}
		})
	}
	return r
}

// stop ends the reads still going (the dry run failed) and waits for them.
func (r *dataDirReads) stop() {
	r.cancel()
	r.wg.Wait()
}

// wait returns minion → eos_data_dir once every read ended; a minion that did not answer,
// or has none, is absent. It may be called more than once.
func (r *dataDirReads) wait() map[string]string {
	r.wg.Wait()
	r.cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dirs
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
// does: a path that shows in one plan and is masked in the next changes the plan's hash. A
// minion without one, or that does not answer (salt-api's local client gives it the text
// "Minion did not return…"), is absent: only an absolute path is taken.
func (l *Layer) dataDirsOf(ctx context.Context, tgt, tgtType string) (map[string]string, error) {
	ret, err := l.read(ctx, true, nil, map[string]any{
		"client": "local", "tgt": tgt, "tgt_type": tgtType, "fun": "config.get", "arg": []any{"eos_data_dir"},
		"timeout": int(l.pingTimeout.Round(time.Second) / time.Second),
	})
	if err != nil {
		return nil, fmt.Errorf("config.get eos_data_dir on %s: %w", tgt, err)
	}
	var answers map[string]json.RawMessage
	_ = json.Unmarshal(ret[0], &answers)
	out := map[string]string{}
	for m, a := range answers {
		var dir string
		if json.Unmarshal(a, &dir) == nil && strings.HasPrefix(dir, "/") {
			out[m] = dir
		}
	}
	return out, nil
}
