package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
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
func (l instantLayer) Apply(context.Context, executor.Spec, executor.LayerPlan, executor.Observer) (executor.LayerResult, error) {
	return executor.LayerResult{Summary: "+1"}, nil
}
func (l instantLayer) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}
func (l instantLayer) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
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
	e, err := bot.New(bot.Config{Catalog: cat, Runner: runner, Store: st, Environments: []string{"staging"}})
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
		if err := e.Wait(ctx); err != nil { // HandleMessage only queues; the preview comes after
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	if posts := con.Posts(); len(posts) < 2*b.N {
		b.Fatalf("%d posts for %d requests: previews missing", len(posts), b.N)
	}
}

// BenchmarkConcurrentConversations runs 500 conversations at once: 500 requests arrive
// together, then the 500 previews are approved together and their runs apply instant layers.
// Every conversation must end with a run recorded as done. It reports the p99 of request →
// preview and of approval → run done.
func BenchmarkConcurrentConversations(b *testing.B) {
	const n = 500
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	runner, _ := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{instantLayer{executor.Terraform}, instantLayer{executor.Nomad}}})
	var previewLat, runLat []time.Duration
	for i := 0; i < b.N; i++ {
		st, err := store.Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
		if err != nil {
			b.Fatal(err)
		}
		envs := make([]string, n)
		for c := range envs {
			envs[c] = fmt.Sprintf("env%d", c)
		}
		e, err := bot.New(bot.Config{Catalog: cat, Runner: runner, Store: st, ProgressInterval: time.Hour, MaxQueued: 2 * n, Environments: envs})
		if err != nil {
			b.Fatal(err)
		}
		con := &previewSignal{Adapter: console.New(console.Config{}), waiting: map[string]chan struct{}{}}
		e.Attach(con)
		ctx := context.Background()
		var mu sync.Mutex
		var wg sync.WaitGroup
		for c := 0; c < n; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				// Every conversation is about its own environment, so none waits for a lock.
				m := con.Say(fmt.Sprintf("@eos create grafana in env%d", c))
				previewed := con.expect(m.Post.ID)
				e.HandleMessage(ctx, con, m)
				select { // HandleMessage only queues: the latency is the preview's
				case <-previewed:
				case <-time.After(time.Minute):
					b.Error("no preview within a minute")
				}
				mu.Lock()
				previewLat = append(previewLat, time.Since(start))
				mu.Unlock()
			}()
		}
		wg.Wait()
		if err := e.Wait(ctx); err != nil { // the previews are posted; now they are recorded too
			b.Fatal(err)
		}
		plans, err := st.Plans(func(p *store.Plan) bool { return p.State == store.PlanPending })
		if err != nil || len(plans) != n {
			b.Fatalf("%d of %d requests got a plan (%v)", len(plans), n, err)
		}
		for _, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				e.HandleReaction(ctx, con, adapters.Reaction{Post: p.Preview, User: adapters.User{ID: "bob", Name: "bob"}, Emoji: "+1"})
				if err := e.Wait(ctx); err != nil { // idle: the approval is handled and its run ended
					b.Error(err)
					return
				}
				if r, err := st.Run(p.ID); err != nil || r.State != store.RunDone {
					b.Errorf("run %s after its approval: %+v, %v", p.ID, r, err)
					return
				}
				mu.Lock()
				runLat = append(runLat, time.Since(start))
				mu.Unlock()
			}()
		}
		wg.Wait()
		runs, _ := st.Runs(func(r *store.Run) bool { return r.State == store.RunDone })
		if len(runs) != n {
			b.Fatalf("%d of %d conversations ended with a run done", len(runs), n)
		}
		st.Close()
	}
	b.ReportMetric(float64(p99(previewLat).Nanoseconds()), "preview-p99-ns")
	b.ReportMetric(float64(p99(runLat).Nanoseconds()), "run-p99-ns")
}

// previewSignal is the console that also says when a request's preview is posted.
type previewSignal struct {
	*console.Adapter
	mu      sync.Mutex
	waiting map[string]chan struct{} // request post id → closed when its preview is posted
}

func (p *previewSignal) expect(request string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan struct{})
	p.waiting[request] = ch
	return ch
}

func (p *previewSignal) Reply(ctx context.Context, parent adapters.PostRef, doc adapters.Doc) (adapters.PostRef, error) {
	ref, err := p.Adapter.Reply(ctx, parent, doc)
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.waiting[parent.ID]; ok && strings.HasPrefix(doc.Plain(), "Plan ") {
		close(ch)
		delete(p.waiting, parent.ID)
	}
	return ref, err
}

func p99(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)*99/100]
}
