package terraform

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// The Terraform layer's overhead against running Terraform by hand on the same module:
// BenchmarkLayerPlan is Eos planning a fresh unit (write module and tfvars, init, plan -out,
// show -json, summarise); BenchmarkRawInitPlan is `terraform init && terraform plan -out`
// in a fresh directory. Their ratio is the layer's overhead (docs/PERFORMANCE.md).

func benchSpec() executor.Spec {
	return executor.Spec{Verb: "create", Target: "bench", Env: "local", Units: []executor.Unit{{Service: "bench",
		Terraform: &executor.TerraformPart{Files: map[string]string{"main.tf": threeResources}, Vars: map[string]any{"size": "small"}}}}}
}

func BenchmarkLayerPlan(b *testing.B) {
	bin, err := exec.LookPath("terraform")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"), Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		spec := benchSpec()
		spec.Env = "e" + string(rune('a'+i%26)) + time.Now().Format("150405.000000000")
		if _, err := l.Plan(ctx, spec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawInitPlan(b *testing.B) {
	bin, err := exec.LookPath("terraform")
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	rc := filepath.Join(root, "terraform.rc")
	os.WriteFile(rc, []byte("disable_checkpoint = true\n"), 0o600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir, _ := os.MkdirTemp(root, "raw")
		os.WriteFile(filepath.Join(dir, "main.tf"), []byte(threeResources), 0o600)
		os.WriteFile(filepath.Join(dir, "vars.tfvars.json"), []byte(`{"size":"small"}`), 0o600)
		for _, args := range [][]string{{"init", "-input=false"}, {"plan", "-input=false", "-out=p.tfplan", "-var-file=vars.tfvars.json"}} {
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("terraform %v: %v\n%s", args, err, out)
			}
		}
	}
}
