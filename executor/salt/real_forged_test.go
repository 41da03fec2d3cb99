package salt

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// forgedMark is in every forged return, so that the plan and the bus show where one reached.
const forgedMark = "forged-by-event"

// forgedStates is a state.apply return a forger claims: one state that would change, named
// with forgedMark.
var forgedStates = map[string]any{"file_|-" + forgedMark + "_|-/srv/" + forgedMark + "_|-managed": map[string]any{
	"result": nil, "changes": map[string]any{"diff": "New file"}, "comment": forgedMark, "name": "/srv/" + forgedMark,
	"__id__": forgedMark, "__run_num__": 0, "duration": 1.0, "start_time": "10:00:00.000000",
}}

// forgedReturn is the data of a return event as the master fires it (salt/master.py _return),
// claiming minion's return of job jid.
func forgedReturn(minion, jid string) map[string]any {
	return map[string]any{"cmd": "_return", "id": minion, "jid": jid, "fun": "state.apply", "fun_args": []any{},
		"return": forgedStates, "retcode": 0, "success": true, "out": "highstate"}
}

// forge runs event.fire_master on the minion through salt-api (a local job), with kwarg.
func forge(t *testing.T, l *Layer, minion string, kwarg map[string]any) {
	t.Helper()
	ret, err := l.api.lowstate(context.Background(), map[string]any{"client": "local", "tgt": minion, "fun": "event.fire_master", "kwarg": kwarg})
	if err != nil || len(ret) == 0 || !strings.Contains(string(ret[0]), `"`+minion+`": true`) {
		t.Fatalf("event.fire_master on %s = %s, %v; want true", minion, ret, err)
	}
}

// forgedPlan plans spec on l while the test minion forges return events for the dry run's
// job, fired by forgeries once the test sees the job published and before the minion returns
// (the state sleeps 4 s while it renders). It returns the plan and how many events with the
// dry run's return tag the bus carried before the minion's own return.
func forgedPlan(t *testing.T, r realSalt, l *Layer, spec executor.Spec, dir string, forgeries func(jid string)) (executor.LayerPlan, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bus, err := l.api.openEvents(ctx)
	if err != nil {
		t.Fatalf("opening the test's own view of the bus: %v", err)
	}
	defer bus.close()
	type planned struct {
		p   executor.LayerPlan
		err error
	}
	done := make(chan planned, 1)
	go func() {
		p, err := l.Plan(ctx, spec)
		done <- planned{p, err}
	}()
	jid, forgedFirst := "", 0
	for ev := range bus.events {
		parts := strings.Split(ev.Tag, "/")
		switch {
		case jid == "" && len(parts) == 4 && parts[0] == "salt" && parts[1] == "job" && parts[3] == "new" &&
			strings.Contains(string(ev.Data), `"state.apply"`) && strings.Contains(string(ev.Data), dir):
			jid = parts[2]
			forgeries(jid)
		case jid != "" && ev.Tag == "salt/job/"+jid+"/ret/"+r.minion:
			if strings.Contains(string(ev.Data), forgedMark) {
				forgedFirst++
				continue
			}
			var d struct{ Cmd string }
			if json.Unmarshal(ev.Data, &d) == nil && d.Cmd == "_return" {
				got := <-done
				if got.err != nil {
					t.Fatalf("Plan: %v", got.err)
				}
				return got.p, forgedFirst
			}
		}
	}
	t.Fatalf("the bus ended before the dry run's return (job %q): %v", jid, bus.err)
	return executor.LayerPlan{}, 0
}

// On the real master, the test minion fires events with the return tag of a dry run in flight
// (event.fire_master, run through salt-api as a job on the minion): in the single-tag form,
// which the master fires with the sender's own id and cmd _minion_event, and in the
// multi-event form, whose data the sender writes whole, claiming cmd _return and the minion's
// id but another job's jid. Both reach the bus before the minion's own return; the plan is
// built from the real return all the same, even with Config.DryRunsFromEvents. The
// multi-event form claiming the right jid too is the exposure doc.go names ("Whose word a
// return is"), which events alone cannot refuse: by default dry runs read /jobs, and the plan
// is built from the real return even then.
func TestRealForgedReturnEventsDoNotMakeTheDryRunsPlan(t *testing.T) {
	r := needSalt(t)
	dir := r.dir(t)
	text := `{#- Sleeps while it renders, so that the job is in flight while the test forges its return. #}
{%- set _ = salt['test.sleep'](4) %}
{{ pillar['dir'] }}/forged.conf:
  file.managed:
    - contents: real
`
	spec := executor.Spec{Verb: "create", Target: "forged", Env: "local", Units: []executor.Unit{{
		Service: "forged", Salt: &executor.SaltPart{State: "forged.sls", Text: text, Targets: []string{r.minion}, Pillar: map[string]any{"dir": dir}},
	}}}
	real := dir + "/forged.conf"
	check := func(what string, p executor.LayerPlan, forgedFirst, want int) {
		t.Helper()
		// A forged return's state would read "<secret masked>" (its name is no word of the
		// blueprint's): the plan is the real one when its one change is the real file's.
		raw, _ := json.Marshal(p)
		if forgedFirst < want {
			t.Errorf("%s: %d forged events reached the bus before the minion's return, want %d: the test proves nothing", what, forgedFirst, want)
		}
		if len(p.Changes) != 1 || p.Changes[0].Salt == nil || p.Changes[0].Salt.Name != real || p.Changes[0].Action != executor.Create {
			t.Errorf("%s: the plan is not the real return's (one change of %s):\n%s", what, real, raw)
		}
	}

	l := r.layer(t, nil, func(c *Config) { c.DryRunsFromEvents = true })
	p, n := forgedPlan(t, r, l, spec, dir, func(jid string) {
		tag := "salt/job/" + jid + "/ret/" + r.minion
		forge(t, l, r.minion, map[string]any{"tag": tag, "data": forgedReturn(r.minion, jid)})
		forge(t, l, r.minion, map[string]any{"tag": "eos/test/forge", "data": map[string]any{},
			"preload": map[string]any{"events": []any{map[string]any{"tag": tag, "data": forgedReturn(r.minion, "20231231235959000002")}}}})
	})
	check("single-tag and other-jid forgeries", p, n, 2)

	jobs := r.layer(t, nil, nil) // the default: dry runs from /jobs
	p, n = forgedPlan(t, r, jobs, spec, dir, func(jid string) {
		tag := "salt/job/" + jid + "/ret/" + r.minion
		forge(t, jobs, r.minion, map[string]any{"tag": "eos/test/forge", "data": map[string]any{},
			"preload": map[string]any{"events": []any{map[string]any{"tag": tag, "data": forgedReturn(r.minion, jid)}}}})
	})
	check("a forgery in the master's own shape, with dry runs from /jobs (the default)", p, n, 1)
}
