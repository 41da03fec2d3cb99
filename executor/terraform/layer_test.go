package terraform

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/executor"
)

func TestPlanApplyLifecycle(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	all := []string{"terraform_data.dns", "terraform_data.server", "terraform_data.volume"}

	t.Run("create", func(t *testing.T) {
		s := serverSpec("small")
		p := mustPlan(t, l, s)
		if p.Status != executor.PlanChanges {
			t.Fatalf("status = %s, want changes", p.Status)
		}
		if !strings.HasPrefix(p.Summary, "+3 ~0 −0: terraform_data.") {
			t.Errorf("summary = %q", p.Summary)
		}
		var addrs []string
		for _, c := range p.Changes {
			if c.Action != executor.Create || c.Unit != "nextcloud" {
				t.Errorf("change %+v, want a create in nextcloud", c)
			}
			addrs = append(addrs, c.Address)
		}
		slices.Sort(addrs)
		if !slices.Equal(addrs, all) {
			t.Errorf("addresses = %v, want %v", addrs, all)
		}

		res, events := mustApply(t, l, s, p)
		if res.Status != executor.ResultOK || res.Summary != "+3" || res.Done != 3 || res.Total != 3 {
			t.Errorf("result = %+v, want ok +3 3/3", res)
		}
		if got := stateAddresses(t, l, "local", "nextcloud"); !slices.Equal(got, all) {
			t.Errorf("state has %v, want %v", got, all)
		}
		// The resources form a chain, so Terraform creates them in this order.
		want := []string{
			"creating terraform_data.server", "created terraform_data.server",
			"creating terraform_data.volume", "created terraform_data.volume",
			"creating terraform_data.dns", "created terraform_data.dns",
		}
		var msgs []string
		last := 0
		for _, e := range events {
			msgs = append(msgs, e.Message)
			if e.Done < last || e.Total != 3 || e.Layer != executor.Terraform || e.Unit != "nextcloud" {
				t.Errorf("event %+v: done went back from %d, or wrong total/layer/unit", e, last)
			}
			last = e.Done
		}
		if !slices.Equal(msgs, want) {
			t.Errorf("event messages = %q, want %q", msgs, want)
		}
		if last != 3 {
			t.Errorf("last event done = %d, want 3", last)
		}
	})

	t.Run("replan is a no-op", func(t *testing.T) {
		p := mustPlan(t, l, serverSpec("small"))
		if p.Status != executor.PlanNoChanges || len(p.Changes) != 0 {
			t.Fatalf("plan = %+v, want no changes", p)
		}
		res, err := l.Apply(testCtx(t), serverSpec("small"), p, executor.Observe(nil, nil))
		if err != nil || res.Status != executor.ResultSkipped {
			t.Errorf("apply of a no-change plan = %+v, %v; want skipped", res, err)
		}
	})

	t.Run("changed variable updates and replaces", func(t *testing.T) {
		s := serverSpec("large")
		s.Units[0].Terraform.HoldsData = []string{"terraform_data.volume"}
		p := mustPlan(t, l, s)
		want := map[string]executor.Change{
			"terraform_data.server": {Unit: "nextcloud", Action: executor.Update, Address: "terraform_data.server", Detail: `input "small" → "large"`},
			"terraform_data.volume": {Unit: "nextcloud", Action: executor.Replace, Address: "terraform_data.volume", Detail: `input "data-small" → "data-large", triggers_replace ["small"] → ["large"]`,
				Forces: "triggers_replace", Reason: "cannot update in place", DataLoss: true},
		}
		if len(p.Changes) != len(want) {
			t.Fatalf("changes = %+v, want %d", p.Changes, len(want))
		}
		for _, c := range p.Changes {
			if c != want[c.Address] {
				t.Errorf("change = %+v\nwant     %+v", c, want[c.Address])
			}
		}
		if !strings.HasPrefix(p.Summary, "+0 ~1 −0 ±1 (1 replaced): terraform_data.volume, terraform_data.server") {
			t.Errorf("summary = %q", p.Summary)
		}
		res, _ := mustApply(t, l, s, p)
		if res.Summary != "+1 ~1 −1" || res.Done != 2 || res.Total != 2 {
			t.Errorf("result = %+v, want +1 ~1 −1, 2/2", res)
		}
	})

	t.Run("destroy", func(t *testing.T) {
		s := serverSpec("large")
		s.Units[0].Destroy = true
		p := mustPlan(t, l, s)
		if len(p.Changes) != 3 {
			t.Fatalf("changes = %+v, want 3 deletes", p.Changes)
		}
		for _, c := range p.Changes {
			if c.Action != executor.Delete {
				t.Errorf("change %+v, want delete", c)
			}
		}
		res, _ := mustApply(t, l, s, p)
		if res.Summary != "+0 ~0 −3" || res.Done != 3 {
			t.Errorf("result = %+v, want −3", res)
		}
		if got := stateAddresses(t, l, "local", "nextcloud"); len(got) != 0 {
			t.Errorf("state still has %v", got)
		}
	})
}

func TestPlanNothingWithoutTerraformPart(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	p, err := l.Plan(testCtx(t), executor.Spec{Env: "local", Units: []executor.Unit{{Service: "x"}}})
	if err != nil || p.Status != executor.PlanNothing || p.Layer != executor.Terraform {
		t.Errorf("plan = %+v, %v; want nothing", p, err)
	}
}

func TestDigestStableAcrossWorkDirs(t *testing.T) {
	t.Parallel()
	a, b := newTestLayer(t), newTestLayer(t)
	withPassword := func(size, pw string) executor.Spec {
		s := serverSpec(size)
		s.Units[0].Terraform.Vars["password"] = pw
		return s
	}
	pa := mustPlan(t, a, withPassword("small", "hunter22"))
	pb := mustPlan(t, b, withPassword("small", "hunter22"))
	if pa.Digest == "" || pa.Digest != pb.Digest {
		t.Fatalf("digests differ for the same spec:\n%s\n%s", pa.Digest, pb.Digest)
	}
	for _, leak := range []string{"hunter22", a.workDir, b.workDir} {
		if strings.Contains(pa.Digest, leak) {
			t.Errorf("digest contains %q:\n%s", leak, pa.Digest)
		}
	}
	if pc := mustPlan(t, b, withPassword("large", "hunter22")); pc.Digest == pa.Digest {
		t.Error("different size, same digest")
	}
	if pd := mustPlan(t, b, withPassword("small", "other-secret")); pd.Digest == pa.Digest {
		t.Error("different sensitive value, same digest")
	}
}

func TestConcurrentPlansOnOneUnit(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = l.Plan(testCtx(t), serverSpec("small"))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("plan %d: %v", i, err)
		}
	}
}
