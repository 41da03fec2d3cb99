package nomad

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// TestLifecycle drives one job through create, no-op, update, a change behind the plan's
// back, a failed deployment with rollback, and destroy, on the real agent.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "life"
	id := e.id(svc)
	label := `a "quoted" ${foo} and %{ if x } value` + "\nsecond line"
	good := map[string]any{"label": label, "args": []any{"3600"}}

	t.Run("plan a new job", func(t *testing.T) {
		p := e.plan(t, e.spec(svc, good))
		if p.Status != executor.PlanChanges || p.Summary != "job "+id+": new, group app ×1" {
			t.Errorf("plan = %s %q, want changes: job "+id+": new, group app ×1", p.Status, p.Summary)
		}
		// A new group lists what its new task runs, and with how much: the full plan shows it.
		want := []executor.Change{{Unit: svc, Action: executor.Create, Address: id + "/app", Detail: "new group, 1 allocation",
			Attrs: strings.Join([]string{"new task main", `task main Driver (none) → "raw_exec"`, `task main Config.args[0] (none) → "3600"`,
				`task main Config.command (none) → "/bin/sleep"`, `task main Resources.CPU (none) → "20"`, `task main Resources.MemoryMB (none) → "16"`}, "\n")}}
		// The change carries its group as data too (for policies): the job, the group and the
		// new task's driver, checked here; the rest of it is TestAGroupChangeBecomesData's.
		got := slices.Clone(p.Changes)
		for i, c := range got {
			if g := c.Nomad; g == nil || g.Job != id || g.Group != "app" || len(g.Tasks) != 1 || g.Tasks[0].Driver.After == nil || *g.Tasks[0].Driver.After != "raw_exec" {
				t.Errorf("change %d's group data = %+v, want job %s, group app, task main on raw_exec", i, g, id)
			}
			got[i].Nomad = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("changes = %+v, want %+v", got, want)
		}
		if !strings.HasPrefix(p.Digest, "nomad "+e.env+"/life: register-new job "+id+" at modify index 0 sha256:") {
			t.Errorf("digest = %q", p.Digest)
		}
	})

	t.Run("apply until healthy", func(t *testing.T) {
		s := e.spec(svc, good)
		res, ev := e.apply(t, s, e.plan(t, s))
		if res.Status != executor.ResultOK || res.Summary != id+" 1/1 healthy" || res.Done != 1 || res.Total != 1 {
			t.Errorf("result = %+v, want ok, "+id+" 1/1 healthy, 1/1", res)
		}
		msgs := ev.messages()
		if len(msgs) < 2 || msgs[0] != "registering" || msgs[len(msgs)-1] != "1/1 allocations healthy" {
			t.Errorf("events = %q, want registering … 1/1 allocations healthy", msgs)
		}
		for _, m := range ev.all {
			if m.Layer != executor.Nomad || m.Unit != svc || m.Resource != "job "+id || m.Action != executor.Create || m.Time.IsZero() {
				t.Errorf("event %+v: wrong layer, unit, resource, action or time", m)
			}
		}
		j := e.job(t, svc)
		if got := j.Meta["label"]; got != label {
			t.Errorf("meta label = %q, want it literally %q", got, label)
		}
		st, err := e.layer.JobStatus(testCtx(t), svc, e.env)
		if err != nil {
			t.Fatalf("Status: %v", err)
		}
		if st.ID != id || st.Version != 0 || !st.Stable || st.Status != "running" || st.Allocations["running"] != 1 ||
			st.Deployment == nil || st.Deployment.Status != "successful" || st.Deployment.Healthy != 1 {
			t.Errorf("status = %+v (deployment %+v)", st, st.Deployment)
		}
		d, err := e.layer.Drift(testCtx(t), s)
		if err != nil || d.Status != executor.DriftClean {
			t.Errorf("drift right after apply = %+v, %v; want clean", d, err)
		}
	})

	t.Run("replan is a no-op", func(t *testing.T) {
		s := e.spec(svc, good)
		p := e.plan(t, s)
		if p.Status != executor.PlanNoChanges || len(p.Changes) != 0 || p.Summary != "no changes" {
			t.Fatalf("plan = %+v, want no changes", p)
		}
		res, err := e.layer.Apply(testCtx(t), s, p, executor.Observe(nil, nil))
		if err != nil || res.Status != executor.ResultSkipped {
			t.Errorf("apply of a no-change plan = %+v, %v; want skipped", res, err)
		}
	})

	t.Run("changes show in the plan", func(t *testing.T) {
		index := *e.job(t, svc).JobModifyIndex
		p := e.plan(t, e.spec(svc, map[string]any{"label": label, "args": []any{"3601"}}))
		if p.Summary != "job "+id+": destructive update of group app ×1" {
			t.Errorf("summary = %q", p.Summary)
		}
		if len(p.Changes) != 1 || p.Changes[0].Action != executor.Replace || !strings.Contains(p.Changes[0].Detail, "task main (Config)") {
			t.Errorf("changes = %+v, want one replace of the task config", p.Changes)
		}
		if !strings.Contains(p.Digest, fmt.Sprintf("register job "+id+" at modify index %d ", index)) {
			t.Errorf("digest %q does not name modify index %d", p.Digest, index)
		}
		scaled := e.plan(t, e.spec(svc, map[string]any{"label": label, "args": []any{"3600"}, "instances": 2}))
		if scaled.Summary != "job "+id+": group app count 1 → 2" || len(scaled.Changes) != 1 || scaled.Changes[0].Action != executor.Update {
			t.Errorf("scale plan = %q %+v", scaled.Summary, scaled.Changes)
		}
	})

	t.Run("a job changed behind the plan is not overwritten", func(t *testing.T) {
		s := e.spec(svc, map[string]any{"label": label, "args": []any{"3602"}})
		p := e.plan(t, s)
		before := *e.job(t, svc).JobModifyIndex

		// Someone registers a different job by hand.
		hand := e.job(t, svc)
		hand.Meta["label"] = "changed by hand"
		if _, _, err := e.api.Jobs().Register(hand, nil); err != nil {
			t.Fatalf("registering by hand: %v", err)
		}
		after := *e.job(t, svc).JobModifyIndex

		res, err := e.layer.Apply(testCtx(t), s, p, executor.Observe(nil, nil))
		var ce *ChangedError
		if !errors.Is(err, ErrChangedSincePlan) || !errors.As(err, &ce) || ce.Planned != before || ce.Now != after {
			t.Fatalf("Apply = %v, want a ChangedError %d → %d", err, before, after)
		}
		if want := fmt.Sprintf("job "+id+" changed since the plan (index %d → %d); plan again", before, after); res.Error != want {
			t.Errorf("result error = %q, want %q", res.Error, want)
		}
		if res.Status != executor.ResultFailed || res.Failed == nil || res.Failed.Address != id {
			t.Errorf("result = %+v, want failed on %s", res, id)
		}
		if got := e.job(t, svc).Meta["label"]; got != "changed by hand" {
			t.Errorf("the hand-made job was overwritten: label %q", got)
		}

		d, err := e.layer.Drift(testCtx(t), e.spec(svc, good))
		if err != nil || d.Status != executor.DriftDrifted || len(d.Changes) != 1 ||
			!strings.Contains(d.Changes[0].Detail, "differs from the declaration") {
			t.Errorf("drift after a hand change = %+v, %v; want drifted, differs from the declaration", d, err)
		}
	})

	t.Run("update back to the declared job", func(t *testing.T) {
		s := e.spec(svc, good)
		res, _ := e.apply(t, s, e.plan(t, s))
		if res.Status != executor.ResultOK {
			t.Errorf("result = %+v", res)
		}
		if j := e.job(t, svc); j.Meta["label"] != label || !*j.Stable {
			t.Errorf("job after update: label %q stable %v", j.Meta["label"], *j.Stable)
		}
	})

	t.Run("a failed deployment is rolled back to the previous stable version", func(t *testing.T) {
		stable := e.job(t, svc)
		bad := e.spec(svc, map[string]any{"label": label, "command": "/bin/sh", "args": []any{"-c", "exit 1"}})
		p := e.plan(t, bad)
		ev := &events{}
		res, err := e.layer.Apply(testCtx(t), bad, p, executor.Observe(ev.report, nil))
		if err == nil || res.Status != executor.ResultFailed {
			t.Fatalf("Apply of a failing job = %+v, %v; want a failure", res, err)
		}
		if !strings.Contains(res.Error, "task main exited 1 and was not restarted; no allocation of version") {
			t.Errorf("error = %q, want the allocation that cannot become healthy and the exit code", res.Error)
		}
		failed := e.job(t, svc)
		if *failed.Version != *stable.Version+1 {
			t.Fatalf("failed version = %d, want %d", *failed.Version, *stable.Version+1)
		}

		note, err := e.layer.Rollback(testCtx(t), bad, nil, executor.Observe(ev.report, nil))
		if err != nil {
			t.Fatalf("Rollback: %v", err)
		}
		if want := fmt.Sprintf("reverted job "+id+" to version %d (1/1 healthy)", *stable.Version); note != want {
			t.Errorf("rollback note = %q, want %q", note, want)
		}
		j := e.job(t, svc)
		if *j.Version != *failed.Version+1 || !*j.Stable || *j.Status != "running" || !slices.Equal(taskArgs(j), []any{"3600"}) {
			t.Errorf("after rollback: version %d stable %v status %s args %v; want version %d, stable, running, [3600]",
				*j.Version, *j.Stable, *j.Status, taskArgs(j), *failed.Version+1)
		}
		d, err := e.layer.Drift(testCtx(t), e.spec(svc, good))
		if err != nil || d.Status != executor.DriftClean {
			t.Errorf("drift after rollback = %+v, %v; want clean", d, err)
		}
	})

	t.Run("destroy deregisters", func(t *testing.T) {
		s := e.destroySpec(svc)
		p := e.plan(t, s)
		if p.Status != executor.PlanChanges || p.Summary != "job "+id+": remove, group app ×1" ||
			len(p.Changes) != 1 || p.Changes[0].Action != executor.Delete {
			t.Fatalf("destroy plan = %q %+v", p.Summary, p.Changes)
		}
		res, ev := e.apply(t, s, p)
		if res.Status != executor.ResultOK || res.Summary != id+" stopped" {
			t.Errorf("result = %+v", res)
		}
		if msgs := ev.messages(); msgs[len(msgs)-1] != "1/1 allocations stopped" {
			t.Errorf("events = %q", msgs)
		}
		j := e.job(t, svc)
		if !*j.Stop {
			t.Errorf("job %s is not stopped", id)
		}
		if again := e.plan(t, s); again.Status != executor.PlanNoChanges {
			t.Errorf("destroy plan of a stopped job = %+v", again)
		}
		d, err := e.layer.Drift(testCtx(t), s)
		if err != nil || d.Status != executor.DriftClean {
			t.Errorf("drift of the destroyed unit = %+v, %v; want clean", d, err)
		}
		d, err = e.layer.Drift(testCtx(t), e.spec(svc, good))
		if err != nil || d.Status != executor.DriftDrifted || d.Changes[0].Detail != "declared but stopped outside Eos" {
			t.Errorf("drift of the declared unit = %+v, %v; want drifted, stopped", d, err)
		}
	})

	t.Run("create again after destroy", func(t *testing.T) {
		s := e.spec(svc, good)
		p := e.plan(t, s)
		if p.Summary != "job "+id+": new, group app ×1" || len(p.Changes) != 1 || p.Changes[0].Action != executor.Create {
			t.Fatalf("plan = %q %+v, want the stopped job as new", p.Summary, p.Changes)
		}
		if res, _ := e.apply(t, s, p); res.Summary != id+" 1/1 healthy" {
			t.Errorf("result = %+v", res)
		}
	})
}
