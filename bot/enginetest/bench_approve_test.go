package enginetest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// BenchmarkApproveToDone measures, against the real Salt master, Nomad agent and Terraform
// that make bench starts, the time from the ✅ on a preview to its run's "done" for `create
// grafana` and `create nextcloud --sso` (each iteration in an environment of its own, so every
// run creates), beside the sum of the layers' applies as the run recorded them. What is left
// (overhead-ms) is the re-plan that binds the approval, judging and bookkeeping; issue #29's
// goal is that it adds at most the slowest piece of the plan (slowest-piece-ms, every unit's
// plan in every layer measured alone, as in BenchmarkPreviewAllLayers).
func BenchmarkApproveToDone(b *testing.B) {
	envs := make([]string, 64)
	tag := rand.N(1 << 20)
	for i := range envs {
		envs[i] = fmt.Sprintf("done%05x%02d", tag, i)
	}
	h, layers := realLayers(b, envs)
	next := 0
	for _, req := range []struct{ name, flags string }{{"grafana", "grafana"}, {"nextcloud-sso", "nextcloud --sso"}} {
		b.Run(req.name, func(b *testing.B) {
			var done, applies, overhead, slowest time.Duration
			for i := 0; i < b.N; i++ {
				if next == len(envs) {
					b.Fatal("out of environments: run with a smaller -benchtime")
				}
				env := envs[next]
				next++
				after := h.Last()
				h.Say("alice", "@eos create "+req.flags+" in "+env)
				p := h.WaitText(after, "React ✅ to approve")
				id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
				stored, err := h.Store.Plan(context.Background(), id)
				if err != nil {
					b.Fatal(err)
				}
				slow, _ := planPieces(b, layers, stored.Plan.Spec) // before the run, as the re-plan sees it
				slowest += slow
				start := time.Now()
				h.React("bob", p.ID, "+1")
				h.WaitText(p.ID, "Run "+id+" · done in")
				took := time.Since(start)
				h.Idle()
				r, err := h.Store.Run(context.Background(), id)
				if err != nil {
					b.Fatal(err)
				}
				var sum time.Duration
				for _, l := range r.Layers {
					sum += l.Elapsed
				}
				done, applies, overhead = done+took, applies+sum, overhead+took-sum
			}
			n := float64(b.N)
			b.ReportMetric(float64(done.Milliseconds())/n, "approve-to-done-ms")
			b.ReportMetric(float64(applies.Milliseconds())/n, "applies-ms")
			b.ReportMetric(float64(overhead.Milliseconds())/n, "overhead-ms")
			b.ReportMetric(float64(slowest.Milliseconds())/n, "slowest-piece-ms")
			b.ReportMetric(float64(overhead)/float64(slowest), "overhead/slowest")
		})
	}
}

// planPieces plans every unit of spec in every layer alone, one after the other, and returns
// the longest of those plans and their sum.
func planPieces(b *testing.B, layers []executor.Layer, spec executor.Spec) (slowest, sum time.Duration) {
	b.Helper()
	for _, l := range layers {
		for _, u := range spec.Units {
			one := spec
			one.Units = []executor.Unit{u}
			if !one.Has(l.Name()) {
				continue
			}
			t0 := time.Now()
			if _, err := l.Plan(context.Background(), one); err != nil {
				b.Fatalf("%s plan of %s: %v", l.Name(), u.Service, err)
			}
			d := time.Since(t0)
			slowest, sum = max(slowest, d), sum+d
		}
	}
	return slowest, sum
}
