package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// startJob starts state.apply of sls on the minions on (or, when nil, the unit's targets) with
// the pillar as data (test=True for a dry run), asynchronously; stateEvents asks the minions
// to fire an event per state.
//
// The submission is the one request that is not safe to repeat, so it carries a jid Eos chose
// (newJID) and is sent again only when it is certain the master did not take it:
//   - refused before anything was sent (connection refused; salt-api's 401, which makes the
//     client log in again): sent again, under the same jid;
//   - failed after it may have been sent (a connection reset, a timeout, a 502, 503 or 504):
//     the job is looked for under its jid in /jobs/<jid> until salt-api answers. Found, it is
//     followed; not there, the master never published it, and it is sent again under the same
//     jid. Should the master still publish the first one late, a minion ignores a jid it
//     already started (the minion's jid_queue), so the states run once.
//
// When salt-api does not answer again in time after a submission that may have been taken,
// an apply ends in executor.Unknown: the job may be running.
func (l *Layer) startJob(ctx context.Context, u executor.Unit, on []string, sls string, test, stateEvents bool, w *watch) (job, error) {
	tgt, tgtType, list := l.target(u)
	if on != nil {
		tgt, tgtType, list = onList(on)
	}
	return l.submit(ctx, jobRequest{name: u.Service, tgt: tgt, tgtType: tgtType, list: list, sls: sls, pillar: u.Salt.Pillar}, test, stateEvents, w)
}

// jobRequest is what one state.apply job runs: sls (one sls name, or several separated by
// commas) on tgt with pillar; name says whose it is in logs (a unit's service, or the
// services of a combined dry run, batch.go).
type jobRequest struct {
	name, tgt, tgtType, sls string
	list                    []string
	pillar                  map[string]any
}

// submit starts the job req describes, as startJob says.
func (l *Layer) submit(ctx context.Context, req jobRequest, test, stateEvents bool, w *watch) (job, error) {
	tgt, tgtType, list, sls := req.tgt, req.tgtType, req.list, req.sls
	pillar := req.pillar
	if pillar == nil {
		pillar = map[string]any{}
	}
	// queue: a minion already running states (another unit's, a scheduled highstate) runs
	// this one after it instead of refusing it; the layer's timeout still bounds the wait.
	kwarg := map[string]any{"pillar": pillar, "test": test, "saltenv": l.saltEnv, "queue": true}
	if stateEvents {
		kwarg["state_events"] = true
	}
	jid := l.newJID()
	low := map[string]any{
		"client": "local_async", "tgt": tgt, "tgt_type": tgtType, "jid": jid,
		"fun": "state.apply", "arg": []any{sls}, "kwarg": kwarg,
	}
	var started startedJob
	// unsure is set while a submission may have been taken without Eos seeing it.
	unsure := false
	err := l.retry(ctx, test, w, nil, func(ctx context.Context) error {
		ret, err := l.api.lowstate(ctx, low)
		if err == nil {
			unsure = false
			_ = json.Unmarshal(ret[0], &started) // no matching minion: an empty string or object
			return nil
		}
		if !executor.Transient(err) || notSent(err) {
			return err
		}
		unsure = true
		executor.Log(ctx, l.log).Warn("the answer to a job submission was lost; looking for the job", "unit", req.name, "jid", jid, "err", err)
		found, ok, ferr := l.findJob(ctx, jid, test, w)
		switch {
		case ferr != nil:
			return ferr
		case ok:
			unsure, started = false, found
			return nil
		}
		unsure = false
		executor.Log(ctx, l.log).Info("the master did not take the job; submitting it again under the same jid", "unit", req.name, "jid", jid)
		return err
	})
	if err != nil {
		if unsure && !test && ctx.Err() != context.Canceled {
			return job{}, executor.Unknown(whatOf(w, job{jid: jid, minions: []string{tgt}})+", if the master took it,",
				"salt-run jobs.lookup_jid "+jid, fmt.Errorf("submitting job %s: %w", jid, err))
		}
		return job{}, fmt.Errorf("starting state.apply %s on %s: %w", sls, tgt, err)
	}
	if started.JID == "" || len(started.Minions) == 0 {
		return job{}, fmt.Errorf("no minion matches %s %q (are their keys accepted on the master?)", tgtType, tgt)
	}
	if missing := minus(list, started.Minions); len(missing) > 0 {
		return job{}, fmt.Errorf("minion %s is not known to the Salt master (no accepted key)", strings.Join(missing, ", "))
	}
	sort.Strings(started.Minions)
	executor.Log(ctx, l.log).Info("started state.apply", "unit", req.name, "sls", sls, "jid", started.JID, "minions", started.Minions, "test", test, "state_events", stateEvents)
	return job{jid: started.JID, minions: started.Minions, test: test}, nil
}

// startedJob is local_async's answer: the job's id and the minions it was published to.
type startedJob struct {
	JID     string   `json:"jid"`
	Minions []string `json:"minions"`
}

// findJob looks for a job under its jid in /jobs/<jid> (jobs.list_job), retrying until
// salt-api answers: ok when the master took it (it saved the job's load, which names its
// function and minions, before publishing it), not ok when /jobs knows no such job
// ("Cannot contact returner or no job with this jid").
func (l *Layer) findJob(ctx context.Context, jid string, test bool, w *watch) (startedJob, bool, error) {
	var out struct {
		Info []struct {
			Function string   `json:"Function"`
			Minions  []string `json:"Minions"`
			Error    string   `json:"Error"`
		} `json:"info"`
	}
	err := l.retry(ctx, test, w, nil, func(ctx context.Context) error {
		return l.api.call(ctx, http.MethodGet, "/jobs/"+url.PathEscape(jid), nil, &out)
	})
	if err != nil {
		return startedJob{}, false, fmt.Errorf("looking for job %s: %w", jid, err)
	}
	if len(out.Info) == 0 || out.Info[0].Function == "" || out.Info[0].Error != "" {
		return startedJob{}, false, nil
	}
	return startedJob{JID: jid, Minions: out.Info[0].Minions}, true, nil
}
