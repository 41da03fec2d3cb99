//go:build unix

package terraform

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// The Terraform layer's overhead against running Terraform by hand on the same module
// (threeResources: three terraform_data resources, local state), in four situations. Each
// BenchmarkLayerPlan case has a BenchmarkRawTerraform counterpart that starts from the same
// directory state; the ratio of the two is the layer's overhead (docs/PERFORMANCE.md).
//
//	LayerPlan/new-blueprint      a new unit of a module never planned before: writes it,
//	                             terraform version (terraform-exec's check, once per
//	                             directory), init, plan -out -json, show -json
//	LayerPlan/new-unit           a new unit of a module planned before: as above, but init is
//	                             replaced by a copy of the earlier init (initcache.go)
//	LayerPlan/replan             the same unit planned again with another size (always
//	                             changes): plan -out -json, show -json
//	LayerPlan/replan-no-changes  the same applied unit planned again unchanged: plan only
//
//	RawTerraform/init-plan       a fresh directory: init && plan -out
//	RawTerraform/init-plan-show  ... && show -json of the plan, which is what Eos gets: the
//	                             changes with their values, machine-readable
//	RawTerraform/plan            an initialised directory, another size: plan -out
//	RawTerraform/plan-show       ... && show -json
//	RawTerraform/plan-no-changes an applied directory, same size: plan -out
//
// new-blueprint and new-unit compare with init-plan(-show), replan with plan(-show),
// replan-no-changes with plan-no-changes.
//
// Besides wall time each case reports cpu-ms/op: the CPU time of the benchmark process and of
// the terraform processes it ran. Nearly all of it is terraform's, and on a shared machine it
// varies far less than wall time, which waits for other people's work too.

// measureCPU starts counting CPU time; the returned function reports it per op. Call it after
// the setup and b.ResetTimer.
func measureCPU(b *testing.B) func() {
	start := cpuTime(b)
	return func() {
		b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// cpuTime is the user and system time of this process and of its waited-for children.
func cpuTime(b *testing.B) time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}

func benchSpec(env, module, size string) executor.Spec {
	return executor.Spec{Verb: "create", Target: "bench", Env: env, Units: []executor.Unit{{Service: "bench",
		Terraform: &executor.TerraformPart{Files: map[string]string{"main.tf": module}, Vars: map[string]any{"size": size}}}}}
}

func benchLayer(b *testing.B) *Layer {
	b.Helper()
	bin, err := exec.LookPath("terraform")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"), Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func benchPlan(b *testing.B, l *Layer, spec executor.Spec) executor.LayerPlan {
	b.Helper()
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func sizeOf(i int) string {
	if i%2 == 0 {
		return "large"
	}
	return "small"
}

func BenchmarkLayerPlan(b *testing.B) {
	b.Run("new-blueprint", func(b *testing.B) {
		l := benchLayer(b)
		defer measureCPU(b)()
		for i := 0; i < b.N; i++ {
			benchPlan(b, l, benchSpec(fmt.Sprintf("e%d", i), threeResources+fmt.Sprintf("# blueprint %d\n", i), "small"))
		}
	})
	b.Run("new-unit", func(b *testing.B) {
		l := benchLayer(b)
		benchPlan(b, l, benchSpec("seen", threeResources, "small"))
		b.ResetTimer()
		defer measureCPU(b)()
		for i := 0; i < b.N; i++ {
			benchPlan(b, l, benchSpec(fmt.Sprintf("e%d", i), threeResources, "small"))
		}
	})
	b.Run("replan", func(b *testing.B) {
		l := benchLayer(b)
		benchPlan(b, l, benchSpec("e", threeResources, "small"))
		b.ResetTimer()
		defer measureCPU(b)()
		for i := 0; i < b.N; i++ {
			if p := benchPlan(b, l, benchSpec("e", threeResources, sizeOf(i))); p.Status != executor.PlanChanges {
				b.Fatalf("plan status %s, want changes", p.Status)
			}
		}
	})
	b.Run("replan-no-changes", func(b *testing.B) {
		l := benchLayer(b)
		spec := benchSpec("e", threeResources, "small")
		if _, err := l.Apply(context.Background(), spec, benchPlan(b, l, spec), executor.Observe(nil, nil)); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		defer measureCPU(b)()
		for i := 0; i < b.N; i++ {
			if p := benchPlan(b, l, spec); p.Status != executor.PlanNoChanges {
				b.Fatalf("plan status %s, want no changes", p.Status)
			}
		}
	})
}

// rawTerraform runs terraform by hand in directories under a temporary root, with a CLI
// configuration like the layer's.
type rawTerraform struct {
	b    *testing.B
	bin  string
	root string
	env  []string
}

func newRawTerraform(b *testing.B) *rawTerraform {
	b.Helper()
	bin, err := exec.LookPath("terraform")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	rc := filepath.Join(root, "terraform.rc")
	text := fmt.Sprintf("disable_checkpoint = true\nplugin_cache_dir = %q\n", filepath.Join(root, "plugins"))
	if err := os.MkdirAll(filepath.Join(root, "plugins"), 0o750); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(rc, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return &rawTerraform{b: b, bin: bin, root: root, env: env}
}

// dir makes a directory holding the module and the variables for size.
func (r *rawTerraform) dir(size string) string {
	r.b.Helper()
	dir, err := os.MkdirTemp(r.root, "raw")
	if err != nil {
		r.b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(threeResources), 0o600); err != nil {
		r.b.Fatal(err)
	}
	r.vars(dir, size)
	return dir
}

func (r *rawTerraform) vars(dir, size string) {
	r.b.Helper()
	if err := os.WriteFile(filepath.Join(dir, "vars.tfvars.json"), []byte(fmt.Sprintf(`{"size":%q}`, size)), 0o600); err != nil {
		r.b.Fatal(err)
	}
}

// run runs terraform commands in dir; exit code 2 (a plan with changes) is success.
func (r *rawTerraform) run(dir string, cmds ...string) {
	r.b.Helper()
	args := map[string][]string{
		"init":  {"init", "-input=false"},
		"plan":  {"plan", "-input=false", "-detailed-exitcode", "-out=p.tfplan", "-var-file=vars.tfvars.json"},
		"show":  {"show", "-json", "p.tfplan"},
		"apply": {"apply", "-input=false", "-auto-approve", "p.tfplan"},
	}
	for _, c := range cmds {
		cmd := exec.Command(r.bin, args[c]...)
		cmd.Dir, cmd.Env = dir, r.env
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok && c == "plan" && ee.ExitCode() == 2 {
			err = nil
		}
		if err != nil {
			r.b.Fatalf("terraform %s: %v\n%s", c, err, out)
		}
	}
}

func BenchmarkRawTerraform(b *testing.B) {
	for _, tc := range []struct {
		name string
		cmds []string
	}{{"init-plan", []string{"init", "plan"}}, {"init-plan-show", []string{"init", "plan", "show"}}} {
		b.Run(tc.name, func(b *testing.B) {
			r := newRawTerraform(b)
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				r.run(r.dir("small"), tc.cmds...)
			}
		})
	}
	for _, tc := range []struct {
		name string
		cmds []string
	}{{"plan", []string{"plan"}}, {"plan-show", []string{"plan", "show"}}} {
		b.Run(tc.name, func(b *testing.B) {
			r := newRawTerraform(b)
			dir := r.dir("small")
			r.run(dir, "init", "plan")
			b.ResetTimer()
			defer measureCPU(b)()
			for i := 0; i < b.N; i++ {
				r.vars(dir, sizeOf(i))
				r.run(dir, tc.cmds...)
			}
		})
	}
	b.Run("plan-no-changes", func(b *testing.B) {
		r := newRawTerraform(b)
		dir := r.dir("small")
		r.run(dir, "init", "plan", "apply")
		b.ResetTimer()
		defer measureCPU(b)()
		for i := 0; i < b.N; i++ {
			r.run(dir, "plan")
		}
	})
}
