package salt

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

func TestGlobTargetsAreResolvedWhenPlanned(t *testing.T) {
	f := newFakeSaltAPI(t, "web1", "web2", "db1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, false) }
	l := newLayer(t, f, nil)
	spec := lvmSpec("web*")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if !strings.HasPrefix(p.Summary, "targets web* = web1, web2; ") || !strings.Contains(p.Digest, " list web1,web2 ") {
		t.Errorf("summary %q / digest %q, want the glob resolved to web1, web2 in both", p.Summary, p.Digest)
	}

	// A minion that joins before the apply is reported, not configured: nobody approved it.
	f.mu.Lock()
	f.minions = append(f.minions, "web3")
	f.mu.Unlock()
	rec := &recorder{}
	res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if c := f.applyCalls(); c[len(c)-1].Tgt != "web1,web2" || c[len(c)-1].TgtType != "list" {
		t.Errorf("the apply targeted %s %q, want the planned list web1,web2", c[len(c)-1].TgtType, c[len(c)-1].Tgt)
	}
	if !strings.HasSuffix(res.Summary, "; web3 joined since the plan, not configured (plan again to include it)") {
		t.Errorf("summary %q, want web3 reported as joined", res.Summary)
	}
	if ev := rec.all(); len(ev) == 0 || ev[0].Resource != "web3" || !strings.HasPrefix(ev[0].Message, "joined since the plan") {
		t.Errorf("events %+v, want web3's first", ev)
	}

	// A new plan includes it, and so has another digest (another hash to approve).
	again, err := l.Plan(context.Background(), spec)
	if err != nil || again.Digest == p.Digest || !strings.Contains(again.Digest, " list web1,web2,web3 ") {
		t.Errorf("the plan after web3 joined has digest %q (%v), want web3 in it", again.Digest, err)
	}

	// A matched minion that does not answer fails the plan before anything runs.
	f.mu.Lock()
	f.down["web2"] = true
	f.mu.Unlock()
	before := len(f.applyCalls())
	_, err = l.Plan(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), "minion web2 did not answer test.ping") || len(f.applyCalls()) != before {
		t.Errorf("Plan with web2 down = %v after %d more state runs, want web2 named and none run", err, len(f.applyCalls())-before)
	}
}
