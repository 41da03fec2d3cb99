package bot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/terraform"
)

// fleetSize is how many services the drift scan benchmark deploys.
const fleetSize = 50

// fleet is fleetSize services deployed through Eos with real Terraform: the light blueprint
// (one terraform_data resource) in environments env01…env50.
type fleet struct {
	e       *Engine
	todo    []*store.Deployed
	dataDir string
	// raw is the wall time of one sequential loop of raw terraform plans, measured once.
	raw     time.Duration
	rawOnce sync.Once
}

// newFleet deploys the fleet: every request at once, then every approval at once, as people
// in fifty environments would.
func newFleet(b *testing.B) *fleet {
	b.Helper()
	dir := b.TempDir()
	cat, err := catalog.Load(catalog.Dir("testdata/light"))
	if err != nil {
		b.Fatal(err)
	}
	tf, err := terraform.New(terraform.Config{
		WorkDir:        filepath.Join(dir, "terraform"),
		CLIConfigFile:  filepath.Join(dir, "terraform.rc"),
		PluginCacheDir: filepath.Join(dir, "plugins"),
	})
	if err != nil {
		b.Fatal(err)
	}
	runner, err := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{tf}})
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "eos.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	var envs []string
	for i := 1; i <= fleetSize; i++ {
		envs = append(envs, fmt.Sprintf("env%02d", i))
	}
	e, err := New(Config{Catalog: cat, Runner: runner, Store: st, ProgressInterval: time.Hour, Environments: envs})
	if err != nil {
		b.Fatal(err)
	}
	con := console.New(console.Config{})
	e.Attach(con)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 1; i <= fleetSize; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.HandleMessage(ctx, con, con.Say(fmt.Sprintf("@eos create light in env%02d", i)))
		}()
	}
	wg.Wait()
	if err := e.Wait(ctx); err != nil { // HandleMessage only queues
		b.Fatal(err)
	}
	plans, err := st.Plans(ctx, func(p *store.Plan) bool { return p.State == store.PlanPending })
	if err != nil || len(plans) != fleetSize {
		b.Fatalf("%d of %d requests got a plan (%v)", len(plans), fleetSize, err)
	}
	for _, p := range plans {
		r, err := con.ReactAs(p.Preview, "bob", "+1")
		if err != nil {
			b.Fatal(err)
		}
		e.HandleReaction(ctx, con, r)
	}
	if err := e.Wait(ctx); err != nil {
		b.Fatal(err)
	}
	todo, err := st.AllDeclared(ctx)
	if err != nil || len(todo) != fleetSize {
		b.Fatalf("%d of %d services deployed (%v)", len(todo), fleetSize, err)
	}
	return &fleet{e: e, todo: todo, dataDir: dir}
}

// rawScan plans every service with terraform itself, one after the other, in Eos's working
// directories: the refresh-only and the normal plan a drift check makes, without the init and
// the show -json that Eos adds to read the plans.
func (f *fleet) rawScan(ctx context.Context) error {
	for _, d := range f.todo {
		dir := filepath.Join(f.dataDir, "terraform", d.Spec.Env, d.Spec.Target)
		for _, mode := range [][]string{{"-refresh-only"}, nil} {
			args := append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode", "-var-file=eos.tfvars.json", "-out=raw.tfplan"}, mode...)
			cmd := exec.CommandContext(ctx, "terraform", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(f.dataDir, "terraform.rc"), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				var exit *exec.ExitError
				if errors.As(err, &exit) && exit.ExitCode() == 2 {
					return fmt.Errorf("%s: terraform %v found changes in a clean fleet", d.Key, mode)
				}
				return fmt.Errorf("%s: terraform plan: %v\n%s", d.Key, err, out)
			}
		}
	}
	return nil
}

// rawTime is the wall time of one raw sequential scan, measured the first time it is asked.
func (f *fleet) rawTime(b *testing.B) time.Duration {
	f.rawOnce.Do(func() {
		start := time.Now()
		if err := f.rawScan(context.Background()); err != nil {
			b.Fatal(err)
		}
		f.raw = time.Since(start)
	})
	return f.raw
}

// BenchmarkDriftScan scans 50 services deployed with real Terraform, as a digest does, with
// 1, 2 and 4 checks at once, against a sequential loop of the same terraform plans run by
// hand. Each scan is one op; speedup-vs-raw is the raw loop's time over the scan's (above 1:
// the scan is faster). The fleet is deployed once and shared by the sub-benchmarks; run it
// with -count 1 (make bench does), each op takes seconds.
func BenchmarkDriftScan(b *testing.B) {
	f := newFleet(b)
	ctx := context.Background()
	b.Run("terraform-sequential", func(b *testing.B) {
		for range b.N {
			start := time.Now()
			if err := f.rawScan(ctx); err != nil {
				b.Fatal(err)
			}
			took := time.Since(start)
			f.rawOnce.Do(func() { f.raw = took })
		}
	})
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("eos-parallel-%d", n), func(b *testing.B) {
			raw := f.rawTime(b)
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				results := f.e.checkDrift(ctx, f.todo, scan{parallelism: n}, nil)
				for _, r := range results {
					if r.Status != executor.DriftClean {
						b.Fatalf("%s/%s is %s in a clean fleet: %s", r.Env, r.Service, r.Status, render.LayerCounts(r))
					}
				}
			}
			perScan := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(raw.Seconds()/perScan.Seconds(), "speedup-vs-raw")
		})
	}
}
