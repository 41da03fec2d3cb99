package enginetest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/bot/store/pgtest"
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
// reports the 99th percentile per request as p99-ns, from the message to its preview posted,
// and as handled-p99-ns, to the request's handling ended: the preview's post recorded (a
// second commit, after the preview; until 2026-11-26 p99-ns measured this).
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
	con := &previewSignal{Adapter: console.New(console.Config{}), waiting: map[string]chan struct{}{}}
	e.Attach(con)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	handled := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := eostest.ProcessCPU()
	for i := 0; i < b.N; i++ {
		m := con.Say("@eos create grafana --port 3001 in staging")
		previewed := con.expect(m.Post.ID)
		start := time.Now()
		e.HandleMessage(ctx, con, m)
		<-previewed // HandleMessage only queues; the preview comes after
		lat = append(lat, time.Since(start))
		if err := e.Wait(ctx); err != nil {
			b.Fatal(err)
		}
		handled = append(handled, time.Since(start))
	}
	b.StopTimer()
	// CPU per request, of the whole process: on a shared machine the wall times also count the
	// waits for a core.
	b.ReportMetric(float64((eostest.ProcessCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(p99(lat).Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(p99(handled).Nanoseconds()), "handled-p99-ns")
	if posts := con.Posts(); len(posts) < 2*b.N {
		b.Fatalf("%d posts for %d requests: previews missing", len(posts), b.N)
	}
}

// BenchmarkConcurrentConversations runs 500 conversations at once: 500 requests arrive
// together, then the 500 previews are approved together and their runs apply instant layers.
// Every conversation must end with a run recorded as done. It reports the p99 of request →
// preview and of approval → run done. The store is bbolt; BenchmarkConcurrentConversationsPostgres
// is the same burst on the test PostgreSQL.
func BenchmarkConcurrentConversations(b *testing.B) {
	concurrentConversations(b, func() *store.Store {
		st, err := store.Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
		if err != nil {
			b.Fatal(err)
		}
		return st
	})
}

// BenchmarkConcurrentConversationsPostgres is BenchmarkConcurrentConversations on the test
// PostgreSQL (scripts/testenv/postgres.sh; EOS_TEST_PG_CONN), each run on a new database.
func BenchmarkConcurrentConversationsPostgres(b *testing.B) {
	concurrentConversations(b, func() *store.Store {
		st, err := store.OpenPostgres(context.Background(), pgtest.Database(b), store.PostgresOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return st
	})
}

func concurrentConversations(b *testing.B, open func() *store.Store) {
	const n = 500
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	runner, _ := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{instantLayer{executor.Terraform}, instantLayer{executor.Nomad}}})
	var previewLat, runLat []time.Duration
	var previewCPU time.Duration // the process's CPU from the burst's start to its last preview
	for i := 0; i < b.N; i++ {
		st := open()
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
		cpu := eostest.ProcessCPU()
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
					b.Errorf("no preview within a minute; the thread:%s", thread(con.Adapter, m.Post.ID))
				}
				mu.Lock()
				previewLat = append(previewLat, time.Since(start))
				mu.Unlock()
			}()
		}
		wg.Wait()
		previewCPU += eostest.ProcessCPU() - cpu
		if err := e.Wait(ctx); err != nil { // the previews are posted; now they are recorded too
			b.Fatal(err)
		}
		plans, err := st.Plans(ctx, func(p *store.Plan) bool { return p.State == store.PlanPending })
		if err != nil || len(plans) != n {
			b.Fatalf("%d of %d requests got a plan (%v); request → preview p99 of those answered: %v", len(plans), n, err, p99(previewLat))
		}
		for _, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				r, err := con.ReactAs(p.Preview, "bob", "+1")
				if err != nil {
					b.Error(err)
					return
				}
				e.HandleReaction(ctx, con, r)
				if err := e.Wait(ctx); err != nil { // idle: the approval is handled and its run ended
					b.Error(err)
					return
				}
				if r, err := st.Run(ctx, p.ID); err != nil || r.State != store.RunDone {
					b.Errorf("run %s after its approval: %+v, %v", p.ID, r, err)
					return
				}
				mu.Lock()
				runLat = append(runLat, time.Since(start))
				mu.Unlock()
			}()
		}
		wg.Wait()
		runs, _ := st.Runs(ctx, func(r *store.Run) bool { return r.State == store.RunDone })
		if len(runs) != n {
			b.Fatalf("%d of %d conversations ended with a run done", len(runs), n)
		}
		st.Close()
	}
	b.ReportMetric(float64(p99(previewLat).Nanoseconds()), "preview-p99-ns")
	// On a quiet machine the burst is bound by CPU: the previews' CPU over the cores is about
	// the last preview's latency, whatever the load was when it was measured.
	b.ReportMetric(float64(previewCPU.Nanoseconds())/float64(b.N), "preview-cpu-ns")
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

// thread is what the console shows in the thread of post root, one post a line.
func thread(con *console.Adapter, root string) string {
	var out strings.Builder
	n, _, _ := strings.Cut(root, "@") // console ids are N@session
	for _, p := range con.Posts() {
		if id := strconv.Itoa(p.ID); id == n || strconv.Itoa(p.Thread) == n {
			fmt.Fprintf(&out, "\n%s: %s", p.Author, p.Text)
		}
	}
	return out.String()
}
