package enginetest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
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
// piece (goal ≤ 1.2), not their sum (sum-ms). slowest-layer-ms is the slowest layer planning
// every unit alone (Salt's one test job for all units is longer than one unit's). busy-% is how busy the machine's cores were
// (every process: Eos, terraform and its providers, the Salt master and minion, the Nomad
// agent) while the preview was made, from /proc/stat, and cpu-s the CPU time they spent: a
// preview that keeps every core busy waits for cores, not for a layer.
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
			var preview, slowest, sum, slowestLayer time.Duration
			var busy, total float64
			for i := 0; i < b.N; i++ {
				after := h.Last()
				start, cpu0 := time.Now(), machineCPU()
				h.Say("alice", "@eos plan "+req.flags+" in "+env)
				h.WaitText(after, "Preview only")
				preview += time.Since(start)
				cpu1 := machineCPU()
				busy += cpu1.busy - cpu0.busy
				total += cpu1.total - cpu0.total
				slow, all := planPieces(b, layers, spec)
				slowest += slow
				sum += all
				slowestLayer += planLayers(b, layers, spec)
			}
			n := float64(b.N)
			b.ReportMetric(float64(preview.Milliseconds())/n, "preview-ms")
			b.ReportMetric(float64(slowest.Milliseconds())/n, "slowest-piece-ms")
			b.ReportMetric(float64(sum.Milliseconds())/n, "sum-ms")
			b.ReportMetric(float64(preview)/float64(slowest), "preview/slowest")
			b.ReportMetric(float64(slowestLayer.Milliseconds())/n, "slowest-layer-ms")
			b.ReportMetric(float64(preview)/float64(slowestLayer), "preview/slowest-layer")
			if total > 0 {
				b.ReportMetric(100*busy/total, "busy-%")
				b.ReportMetric(busy/machineHz/n, "cpu-s")
			}
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

// planLayers plans spec in each layer alone, all its units at once (as the preview plans
// them: Salt runs every unit's states in one test job), and returns the slowest layer's time.
func planLayers(b *testing.B, layers []executor.Layer, spec executor.Spec) (slowest time.Duration) {
	b.Helper()
	for _, l := range layers {
		if !spec.Has(l.Name()) {
			continue
		}
		t0 := time.Now()
		if _, err := l.Plan(context.Background(), spec); err != nil {
			b.Fatalf("%s plan: %v", l.Name(), err)
		}
		slowest = max(slowest, time.Since(t0))
	}
	return slowest
}

// machineTimes are the machine's CPU times from /proc/stat, in clock ticks: busy (everything
// but idle and I/O wait) and total. Zero where there is no /proc/stat.
type machineTimes struct{ busy, total float64 }

// machineHz is the unit of /proc/stat's times (USER_HZ, 100 on Linux).
const machineHz = 100

func machineCPU() machineTimes {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTimes{}
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal …
	var t machineTimes
	for i, v := range f[1:] {
		x, _ := strconv.ParseFloat(v, 64)
		if i >= 8 { // guest times are counted in user already
			break
		}
		t.total += x
		if i != 3 && i != 4 {
			t.busy += x
		}
	}
	return t
}
