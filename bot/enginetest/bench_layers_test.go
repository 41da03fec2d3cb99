package enginetest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// BenchmarkPreviewAllLayers measures, against the real Salt master, Nomad agent and Terraform
// that make bench starts, the time from a request to its preview for `create grafana` and
// `create nextcloud --sso`, and in the same run each piece alone: every unit's plan in every
// layer, planned by itself. It reports preview-ms, slowest-piece-ms and their ratio: the
// layers and units are planned side by side, so the preview should take about its slowest
// piece (goal ≤ 1.2), not their sum (sum-ms).
func BenchmarkPreviewAllLayers(b *testing.B) {
	env := fmt.Sprintf("bench%06x", rand.N(1<<24))
	h, layers := realLayers(b, []string{env})
	for _, req := range []struct{ name, flags string }{{"grafana", "grafana"}, {"nextcloud-sso", "nextcloud --sso"}} {
		b.Run(req.name, func(b *testing.B) {
			// The spec the previews plan, from one pending plan of the same request.
			after := h.Last()
			h.Say("alice", "@eos create "+req.flags+" in "+env)
			p := h.WaitText(after, "React ✅ to approve")
			id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
			stored, err := h.Store.Plan(context.Background(), id)
			if err != nil {
				b.Fatal(err)
			}
			spec := stored.Plan.Spec
			var preview, slowest, sum time.Duration
			for i := 0; i < b.N; i++ {
				after := h.Last()
				start := time.Now()
				h.Say("alice", "@eos plan "+req.flags+" in "+env)
				h.WaitText(after, "Preview only")
				preview += time.Since(start)
				slow, all := planPieces(b, layers, spec)
				slowest += slow
				sum += all
			}
			n := float64(b.N)
			b.ReportMetric(float64(preview.Milliseconds())/n, "preview-ms")
			b.ReportMetric(float64(slowest.Milliseconds())/n, "slowest-piece-ms")
			b.ReportMetric(float64(sum.Milliseconds())/n, "sum-ms")
			b.ReportMetric(float64(preview)/float64(slowest), "preview/slowest")
		})
	}
}

// realLayers is a harness on the real Salt master, Nomad agent and Terraform that make bench
// starts, with envs declared, and its layers in run order.
func realLayers(b *testing.B, envs []string) (*eostest.Harness, []executor.Layer) {
	sl, _, _ := eostest.SaltLayer(b)
	nl, err := nomad.New(nomad.Config{Address: eostest.NomadAgent(b), DeployTimeout: 90 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	h := eostest.New(b, eostest.Options{Layers: []executor.Layer{sl, nl}, Environments: envs})
	return h, []executor.Layer{sl, h.Terraform, nl}
}
