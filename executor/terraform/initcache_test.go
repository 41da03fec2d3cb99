package terraform

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// countingTerraform wraps the real terraform in a script that logs each subcommand, and
// returns the wrapper and a function that returns (and forgets) the subcommands run so far.
func countingTerraform(t *testing.T) (string, func() []string) {
	t.Helper()
	real := terraformBinary(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "commands")
	script := "#!/bin/sh\necho \"$1\" >> " + shellQuote(log) + "\nexec " + shellQuote(real) + " \"$@\"\n"
	bin := filepath.Join(dir, "terraform")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, func() []string {
		b, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		os.Remove(log)
		return strings.Fields(string(b))
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The layer runs init only when what init reads changed, seeds a new unit of a module it has
// initialised before from that init, and reads back only plans that change something.
func TestInitAndShowRunOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	bin, commands := countingTerraform(t)
	root := t.TempDir()
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	sized := func(env, size, module string) executor.Spec {
		return benchSpec(env, module, size)
	}
	edited := threeResources + "# edited\n"
	steps := []struct {
		name  string
		spec  executor.Spec
		apply bool
		want  []string
	}{
		{"first unit of a module", sized("a", "small", threeResources), false, []string{"version", "init", "plan", "show"}},
		{"same unit, new size", sized("a", "large", threeResources), false, []string{"plan", "show"}},
		{"new unit, same module", sized("b", "small", threeResources), true, []string{"version", "plan", "show", "apply"}},
		{"applied unit unchanged", sized("b", "small", threeResources), false, []string{"plan"}},
		{"module edited", sized("b", "small", edited), false, []string{"init", "plan"}},
		// Only an init in a new directory is kept for other units: elsewhere its result also
		// depends on the lock file it started from.
		{"new unit of the edited module", sized("c", "small", edited), false, []string{"version", "init", "plan", "show"}},
		{"another new unit of it", sized("d", "small", edited), false, []string{"version", "plan", "show"}},
	}
	for _, st := range steps {
		p, err := l.Plan(ctx, st.spec)
		if err != nil {
			t.Fatalf("%s: Plan: %v", st.name, err)
		}
		if st.apply {
			if _, err := l.Apply(ctx, st.spec, p, executor.Observe(nil, nil)); err != nil {
				t.Fatalf("%s: Apply: %v", st.name, err)
			}
		}
		if got := commands(); !slices.Equal(got, st.want) {
			t.Errorf("%s: terraform ran %v, want %v", st.name, got, st.want)
		}
	}
}

// A directory whose init was skipped but is not initialised after all (here its installed
// module was removed behind the layer's back) gets init and a second plan, not an error.
func TestSkippedInitIsRunWhenThePlanNeedsIt(t *testing.T) {
	t.Parallel()
	bin, commands := countingTerraform(t)
	root := t.TempDir()
	shared := filepath.Join(root, "shared")
	if err := os.Mkdir(shared, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shared, "main.tf"), []byte(`resource "terraform_data" "child" {}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(root, "work"), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	// Units are WorkDir/<env>/<service>, so ../../../shared is root/shared.
	module := threeResources + "module \"child\" {\n  source = \"../../../shared\"\n}\n"
	ctx := testCtx(t)
	for i, env := range []string{"a", "b"} {
		s := benchSpec(env, module, "small")
		if _, err := l.Plan(ctx, s); err != nil {
			t.Fatalf("plan %d: %v", i, err)
		}
		if err := os.RemoveAll(filepath.Join(l.workDir, env, "bench", ".terraform", "modules")); err != nil {
			t.Fatal(err)
		}
		commands()
		p, err := l.Plan(ctx, s)
		if err != nil {
			t.Fatalf("plan of %s after its module went missing: %v", env, err)
		}
		if got, want := commands(), []string{"plan", "init", "plan", "show"}; !slices.Equal(got, want) {
			t.Errorf("%s: terraform ran %v, want %v", env, got, want)
		}
		if add, _, _ := p.Counts(); add != 4 {
			t.Errorf("%s: plan adds %d, want 4 (three resources and the child module's)", env, add)
		}
	}

	// A broken snapshot is dropped by the first unit seeded from it, and made again.
	snapshots, err := filepath.Glob(filepath.Join(l.workDir, snapshotsDir, "*", ".terraform", "modules"))
	if err != nil || len(snapshots) != 1 {
		t.Fatalf("snapshots with modules: %v, %v; want one", snapshots, err)
	}
	if err := os.RemoveAll(snapshots[0]); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		env  string
		want []string
	}{
		{"c", []string{"version", "plan", "init", "plan", "show"}},
		{"d", []string{"version", "init", "plan", "show"}},
		{"e", []string{"version", "plan", "show"}},
	} {
		if _, err := l.Plan(ctx, benchSpec(step.env, module, "small")); err != nil {
			t.Fatalf("plan of %s: %v", step.env, err)
		}
		if got := commands(); !slices.Equal(got, step.want) {
			t.Errorf("%s: terraform ran %v, want %v", step.env, got, step.want)
		}
	}
}

func TestInitKey(t *testing.T) {
	root := t.TempDir()
	mirror := filepath.Join(root, "mirror")
	provider := filepath.Join(mirror, "registry.terraform.io", "eos", "x", "0.1.0", "linux_amd64", "terraform-provider-x")
	if err := os.MkdirAll(filepath.Dir(provider), 0o750); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(provider, "v1")
	newLayer := func(b *BackendConfig) *Layer {
		t.Helper()
		l, err := New(Config{Binary: terraformBinary(t), WorkDir: filepath.Join(root, "work"), Mirror: mirror,
			MirrorInclude: []string{"registry.terraform.io/eos/*"}, Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := newLayer(nil)
	dir := filepath.Join(root, "unit")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, "main.tf"), "# main\n")
	key := func(l *Layer) string {
		t.Helper()
		k, err := l.initKey(dir)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key(l)
	write(filepath.Join(dir, varsFile), `{"size":"large"}`)
	if err := os.Mkdir(filepath.Join(dir, plansDir), 0o750); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, plansDir, "x"+planExt), "plan")
	if key(l) != base {
		t.Error("the key changed with the variables or a saved plan, which init does not read")
	}
	pgA := newLayer(&BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://a", "schema_name": "s"}})
	pgB := newLayer(&BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://b", "schema_name": "s"}})
	if key(pgA) != key(pgB) {
		t.Error("the key changed with the secret backend argument, which init does not record")
	}
	differ := []struct {
		name   string
		change func() *Layer
	}{
		{"a module file", func() *Layer { write(filepath.Join(dir, "main.tf"), "# main, edited\n"); return l }},
		{"a new module file", func() *Layer { write(filepath.Join(dir, "extra.tf.json"), "{}"); return l }},
		{"the backend", func() *Layer { return pgA }},
		{"a backend argument", func() *Layer {
			return newLayer(&BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://a", "schema_name": "t"}})
		}},
		{"a provider rebuilt into the mirror", func() *Layer { write(provider, "v2, longer"); return l }},
		{"the CLI configuration", func() *Layer {
			l2, err := New(Config{Binary: terraformBinary(t), WorkDir: filepath.Join(root, "work"), Mirror: mirror,
				MirrorInclude: []string{"registry.terraform.io/eos/*"}, PluginCacheDir: filepath.Join(root, "cache")})
			if err != nil {
				t.Fatal(err)
			}
			return l2
		}},
	}
	prev := key(l)
	for _, tt := range differ {
		if got := key(tt.change()); got == prev {
			t.Errorf("the key did not change with %s", tt.name)
		} else {
			prev = got
		}
	}
}

func TestCopyInitFiles(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	files := map[string]string{
		lockFile: "lock",
		filepath.Join(dataDir, "providers", "registry.terraform.io", "eos", "x", "terraform-provider-x"): "binary",
		filepath.Join(dataDir, "modules", "modules.json"):                                                "{}",
		filepath.Join(dataDir, "terraform.tfstate"):                                                      "backend",
		filepath.Join(dataDir, workspaceFile):                                                            "prod_web",
		filepath.Join(dataDir, initMarkerFile):                                                           "{}",
	}
	for name, text := range files {
		path := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dataDir, "providers", "cached")
	if err := os.Symlink("/var/cache/plugins/x", filepath.Join(src, link)); err != nil {
		t.Fatal(err)
	}
	if err := copyInitFiles(src, dst); err != nil {
		t.Fatalf("copyInitFiles: %v", err)
	}
	for name, text := range files {
		b, err := os.ReadFile(filepath.Join(dst, name))
		own := strings.HasSuffix(name, workspaceFile) || strings.HasSuffix(name, initMarkerFile)
		switch {
		case own && err == nil:
			t.Errorf("%s was copied; it belongs to one directory", name)
		case !own && string(b) != text:
			t.Errorf("%s = %q, %v; want %q", name, b, err, text)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, link)); err != nil || target != "/var/cache/plugins/x" {
		t.Errorf("link = %q, %v", target, err)
	}
	sameFile := func(name string) bool {
		a, errA := os.Stat(filepath.Join(src, name))
		b, errB := os.Stat(filepath.Join(dst, name))
		return errA == nil && errB == nil && os.SameFile(a, b)
	}
	for name := range files {
		provider := strings.Contains(name, "providers")
		if sameFile(name) != provider && !strings.HasSuffix(name, workspaceFile) && !strings.HasSuffix(name, initMarkerFile) {
			t.Errorf("%s: hard-linked = %v, want %v (only provider packages are shared)", name, !provider, provider)
		}
	}
}

// The marker is only believed while the lock file is the one init left.
func TestInitialisedForChecksTheLockFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, lockFile), []byte("v1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := markInitialised(dir, "k"); err != nil {
		t.Fatal(err)
	}
	if !initialisedFor(dir, "k") || initialisedFor(dir, "other") {
		t.Fatal("marker not read back")
	}
	if err := os.WriteFile(filepath.Join(dir, lockFile), []byte("v2"), 0o600); err != nil {
		t.Fatal(err)
	}
	if initialisedFor(dir, "k") {
		t.Error("a changed lock file still counts as initialised")
	}
	if err := forgetInit(dir); err != nil || fresh(dir) {
		t.Errorf("forgetInit = %v; the directory must not look fresh (it has a lock file)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, dataDir, initMarkerFile)); !os.IsNotExist(err) {
		t.Errorf("marker still there: %v", err)
	}
}
