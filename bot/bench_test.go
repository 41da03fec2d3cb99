package bot_test

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
)

// instantLayer plans and applies nothing, instantly: what is left to measure is Eos's own cost.
type instantLayer struct{ name executor.LayerName }

func (l instantLayer) Name() executor.LayerName { return l.name }
func (l instantLayer) Plan(context.Context, executor.Spec) (executor.LayerPlan, error) {
	return executor.LayerPlan{Status: executor.PlanChanges, Summary: "+1 ~0 −0: x", Digest: "create x",
		Changes: []executor.Change{{Action: executor.Create, Address: "x"}}}, nil
}
func (l instantLayer) Apply(context.Context, executor.Spec, executor.LayerPlan, func(executor.Event)) (executor.LayerResult, error) {
	return executor.LayerResult{Summary: "+1"}, nil
}
func (l instantLayer) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}
func (l instantLayer) Rollback(context.Context, executor.Spec, *executor.Spec, func(executor.Event)) (string, error) {
	return "", nil
}

// BenchmarkRequestToPreview is Eos's overhead from a message arriving at the console adapter
// to its preview posted: parse, compile, plan (instant layers), store, render, post. It
// reports the 99th percentile per request as p99-ns.
func BenchmarkRequestToPreview(b *testing.B) {
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	runner, _ := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{instantLayer{executor.Terraform}, instantLayer{executor.Nomad}}})
	st, err := store.Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	e, err := bot.New(bot.Config{Catalog: cat, Runner: runner, Store: st})
	if err != nil {
		b.Fatal(err)
	}
	con := console.New(console.Config{})
	e.Attach(con)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := con.Say("@eos create grafana --port 3001 in staging")
		start := time.Now()
		e.HandleMessage(ctx, con, m)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	if posts := con.Posts(); len(posts) < 2*b.N {
		b.Fatalf("%d posts for %d requests: previews missing", len(posts), b.N)
	}
}
