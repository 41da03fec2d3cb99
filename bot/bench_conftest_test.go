package bot

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/policy/rego"
)

// The same example library and the same big plan through `conftest test`, the way Atlantis
// runs a policy check: one process per plan, reading the policy folder and the plan's JSON.
// Issue #31 asks Eos's judgement to be at least 20 times faster; eos-ratio is conftest's
// median over Eos's (BenchmarkPolicyExamplesOverABigPlan's judgement, timed here between
// conftest's runs, the harsher measure: each follows an idle wait for conftest's process),
// eos-steady-ratio the same over Eos's judgements back to back in the same run. conftest is EOS_CONFTEST, which `make bench` installs from the Go module
// proxy into the cache (scripts/testenv/conftest.sh); without it the benchmark skips and says
// why.
//
// conftest knows deny and warn, not Eos's require, so the check is that it denies and warns
// what Eos does.
func BenchmarkConftestOverABigPlan(b *testing.B) {
	bin := os.Getenv("EOS_CONFTEST")
	if bin == "" {
		b.Skip("EOS_CONFTEST is not set: `make bench` installs conftest (scripts/testenv/conftest.sh build) and sets it")
	}
	// The files Eos loads, without the tests (conftest would parse those too).
	policies := b.TempDir()
	src := filepath.Join("..", "examples", "policies")
	files, err := filepath.Glob(filepath.Join(src, "*", "*.rego"))
	if err != nil {
		b.Fatal(err)
	}
	top, _ := filepath.Glob(filepath.Join(src, "*.rego"))
	for _, f := range append(files, top...) {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		rel, _ := filepath.Rel(src, f)
		if err := os.MkdirAll(filepath.Join(policies, filepath.Dir(rel)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(policies, rel), body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	doc := bigPlanInput()
	body, err := json.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	input := filepath.Join(b.TempDir(), "plan.json")
	if err := os.WriteFile(input, body, 0o644); err != nil {
		b.Fatal(err)
	}
	run := func() []byte {
		// conftest exits 1 when a rule denies, as it does here: the output is checked instead.
		out, _ := exec.Command(bin, "test", "--all-namespaces", "--no-color", "--output", "json", "--policy", policies, input).Output()
		return out
	}
	var results []struct {
		Failures []struct{ Msg string } `json:"failures"`
		Warnings []struct{ Msg string } `json:"warnings"`
	}
	out := run()
	denies, warnings := 0, 0
	if json.Unmarshal(out, &results) == nil {
		for _, r := range results { // one result per namespace (package)
			denies, warnings = denies+len(r.Failures), warnings+len(r.Warnings)
		}
	}
	if denies != 11 || warnings != 10 {
		b.Fatalf("conftest does not decide what Eos decides on the big plan (want 11 denies, 10 warnings):\n%s", out)
	}

	set, err := rego.Load(context.Background(), []string{policies}, 0)
	if err != nil {
		b.Fatal(err)
	}
	// Eos's judgements are timed between conftest's runs, so both meet the same machine.
	times := make([]time.Duration, 0, b.N)
	eos := make([]time.Duration, 0, 5*b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		run()
		times = append(times, time.Since(start))
		b.StopTimer()
		for range 5 {
			start := time.Now()
			set.Judge(context.Background(), doc)
			eos = append(eos, time.Since(start))
		}
		b.StartTimer()
	}
	b.StopTimer()
	// And back to back, as BenchmarkPolicyExamplesOverABigPlan times them: the machine busy,
	// not waking from the idle spell of waiting for conftest's process.
	steady := make([]time.Duration, 0, 5*b.N)
	for range 5 * b.N {
		start := time.Now()
		set.Judge(context.Background(), doc)
		steady = append(steady, time.Since(start))
	}
	slices.Sort(times)
	slices.Sort(eos)
	slices.Sort(steady)
	median := times[len(times)/2]
	b.ReportMetric(float64(median.Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(eos[len(eos)/2].Microseconds())/1000, "eos-median-ms")
	b.ReportMetric(float64(median)/float64(eos[len(eos)/2]), "eos-ratio")
	b.ReportMetric(float64(median)/float64(steady[len(steady)/2]), "eos-steady-ratio")
	if v, err := exec.Command(bin, "--version").Output(); err == nil {
		b.Logf("%s", strings.TrimSpace(string(v)))
	}
}
