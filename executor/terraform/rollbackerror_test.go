package terraform

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With the real terraform: a rollback plan file terraform cannot read gives an error that
// carries both of its problems (it used to end at "…as a statefile: 2 problems:"), and the
// log has every paragraph of the diagnostic, the plan-file reason too.
func TestRealShowOfAnUnreadableRollbackPlanKeepsEveryProblem(t *testing.T) {
	bin := terraformBinary(t)
	var logs bytes.Buffer
	root := t.TempDir()
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"),
		Timeout: time.Minute, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	u := serverSpec("small").Units[0]
	ud, release, err := l.lockUnit("local", u)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	r := l.newRun(ud, u)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := r.prepare(ctx, u.Terraform); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ud.dir, rollbackFile), []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = r.show(ctx, rollbackFile)
	if err == nil {
		t.Fatal("terraform show read a garbage plan file")
	}
	msg := err.Error()
	for _, want := range []string{"Error reading eos-rollback.tfplan as a statefile: 2 problems: - Unsupported state file format:",
		"could not be parsed as JSON", `does not have a "version" attribute`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q:\n%s", want, msg)
		}
	}
	if strings.HasSuffix(strings.TrimSpace(msg), "problems:") {
		t.Errorf("the error ends at the announcement of its problems: %s", msg)
	}
	if log := logs.String(); !strings.Contains(log, "Plan read error") || !strings.Contains(log, "version") {
		t.Errorf("the log does not keep the diagnostic whole:\n%s", log)
	}
}
