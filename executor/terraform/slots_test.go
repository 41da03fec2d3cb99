package terraform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// At most Config.MaxCommands terraform commands run at once across the layer: a command
// beyond them waits for a place, and gives up with its context, without starting terraform.
func TestTerraformCommandsWaitForAPlace(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "terraform")
	if err := os.WriteFile(bin, []byte(fakeTerraform), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "rec")
	if err := os.Mkdir(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(dir, "work"), MaxCommands: 2,
		Env: map[string]string{"EOS_FAKE_DIR": rec}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if cap(l.procs) != 2 {
		t.Fatalf("%d places, want the 2 configured", cap(l.procs))
	}
	// Two commands of other runs hold both places.
	for range 2 {
		release, err := l.slot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer release()
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("the run was stopped"))
	_, err = l.Plan(ctx, serverSpec("small"))
	if err == nil || !strings.Contains(err.Error(), "waiting for one of the 2 commands that may run at once: the run was stopped") {
		t.Fatalf("Plan error = %v, want it to say it waited for a place", err)
	}
	if _, err := os.Stat(filepath.Join(rec, "init.args")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("terraform init ran without a place (%v)", err)
	}
}

// Without MaxCommands the layer allows twice the cores, and never fewer than 4.
func TestTerraformCommandsDefaultToTwiceTheCores(t *testing.T) {
	cfg := Config{WorkDir: t.TempDir()}
	if err := cfg.normalise(); err != nil {
		t.Fatal(err)
	}
	if cfg.MaxCommands < 4 {
		t.Errorf("MaxCommands = %d, want at least 4", cfg.MaxCommands)
	}
	if err := (&Config{WorkDir: t.TempDir(), MaxCommands: -1}).normalise(); err == nil {
		t.Error("a negative MaxCommands was accepted")
	}
}
