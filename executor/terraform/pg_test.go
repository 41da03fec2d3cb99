package terraform

import (
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"

	"github.com/eosbot/eos/executor"
)

// pgBackend gives a test its own schema in the PostgreSQL that scripts/testenv/postgres.sh
// started (EOS_TEST_PG_CONN). Without it the test skips, unless CI is set.
func pgBackend(t *testing.T) *BackendConfig {
	t.Helper()
	conn := testServer(t, "EOS_TEST_PG_CONN", "postgres.sh")
	schema := "eos_test_" + randomSuffix()
	t.Cleanup(func() {
		db, err := sql.Open("pgx", conn)
		if err == nil {
			db.Exec("DROP SCHEMA IF EXISTS " + pgx.Identifier{schema}.Sanitize() + " CASCADE")
			db.Close()
		}
	})
	return &BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": conn, "schema_name": schema}}
}

func newPgLayer(t *testing.T, b *BackendConfig) *Layer {
	t.Helper()
	root := t.TempDir()
	l, err := New(Config{
		Binary:  terraformBinary(t),
		WorkDir: filepath.Join(root, "work"),
		Timeout: time.Minute,
		Backend: b,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

// pgWorkspaces lists the workspaces with state in the backend's schema.
func pgWorkspaces(t *testing.T, b *BackendConfig) []string {
	t.Helper()
	db, err := sql.Open("pgx", b.Config["conn_str"])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name FROM " + pgx.Identifier{b.pgSchema()}.Sanitize() + ".states WHERE data LIKE '%terraform_data%' ORDER BY name")
	if err != nil {
		t.Fatalf("querying the states table: %v", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// State applied through the pg backend lives in PostgreSQL: no state file in the working
// directory, no connection string written anywhere in it, and another Eos with a fresh
// working directory sees the resources as existing.
func TestPgBackendKeepsStateInPostgres(t *testing.T) {
	t.Parallel()
	b := pgBackend(t)
	a := newPgLayer(t, b)
	s := serverSpec("small")
	if p := mustPlan(t, a, s); p.Status != executor.PlanChanges || len(p.Changes) != 3 {
		t.Fatalf("first plan = %s with %d changes, want 3 creations", p.Status, len(p.Changes))
	} else {
		mustApply(t, a, s, p)
	}

	dir := filepath.Join(a.workDir, "local", "nextcloud")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a local terraform.tfstate exists (%v); the state should be in PostgreSQL", err)
	}
	if got := pgWorkspaces(t, b); strings.Join(got, ",") != "local_nextcloud" {
		t.Errorf("workspaces with state in PostgreSQL = %v, want [local_nextcloud]", got)
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if text, err := os.ReadFile(path); err == nil && strings.Contains(string(text), b.Config["conn_str"]) {
			t.Errorf("%s holds the connection string", path)
		}
		return nil
	})

	other := newPgLayer(t, b)
	if p := mustPlan(t, other, s); p.Status != executor.PlanNoChanges {
		t.Errorf("a fresh working directory plans %s (%v); want no changes from the shared state", p.Status, p.Changes)
	}
	if d, err := other.Drift(testCtx(t), s); err != nil || d.Status != executor.DriftClean {
		t.Errorf("drift = %+v, %v; want clean", d, err)
	}
	if d, err := other.Drift(testCtx(t), serverSpec("large")); err != nil || d.Status != executor.DriftDrifted {
		t.Errorf("drift against a changed declaration = %+v, %v; want drifted", d, err)
	}
}

// slowModule takes five seconds to apply, so a second run finds the state locked.
const slowModule = `
resource "terraform_data" "slow" {
  input = "x"

  provisioner "local-exec" {
    command = "sleep 5"
  }
}
`

// Two Eos instances (separate working directories) apply the same unit at once: Terraform's
// lock lets exactly one through; the other is refused with a message naming the holder, rolls
// nothing back, and afterwards plans no changes.
func TestPgBackendConcurrentApplyOneWins(t *testing.T) {
	t.Parallel()
	b := pgBackend(t)
	layers := []*Layer{newPgLayer(t, b), newPgLayer(t, b)}
	s := spec(unit("slow", map[string]string{"main.tf": slowModule}, nil))
	loser, msg := applyRace(t, layers, s)
	wantPrefix := "terraform apply for local/slow: the state is locked by " + loser.who + " pid "
	if !strings.HasPrefix(msg, wantPrefix) || !strings.Contains(msg, "(apply since ") || !strings.HasSuffix(msg, "try again when that run is done") {
		t.Errorf("lock message = %q\nwant it to start %q and name the apply holding the lock", msg, wantPrefix)
	}

	loserRecovers(t, loser, s)
}

// A new unit of a module another unit was initialised for starts from that init (no init of
// its own), still gets its own workspace, and the kept init holds no connection string.
func TestPgBackendNewUnitFromInitSnapshot(t *testing.T) {
	t.Parallel()
	b := pgBackend(t)
	bin, commands := countingTerraform(t)
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(t.TempDir(), "work"), Timeout: time.Minute, Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	first, second := serverSpec("small"), serverSpec("small")
	second.Env = "staging"
	for _, s := range []executor.Spec{first, second} {
		p := mustPlan(t, l, s)
		if add, _, _ := p.Counts(); add != 3 {
			t.Fatalf("%s: plan adds %d, want 3", s.Env, add)
		}
		mustApply(t, l, s, p)
	}
	got := commands()
	if n := strings.Count(strings.Join(got, " "), "init"); n != 1 {
		t.Errorf("terraform ran %v: %d inits, want 1", got, n)
	}
	if ws := pgWorkspaces(t, b); strings.Join(ws, ",") != "local_nextcloud,staging_nextcloud" {
		t.Errorf("workspaces with state = %v, want local_nextcloud and staging_nextcloud", ws)
	}
	filepath.WalkDir(filepath.Join(l.workDir, snapshotsDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if text, err := os.ReadFile(path); err == nil && strings.Contains(string(text), b.Config["conn_str"]) {
			t.Errorf("%s holds the connection string", path)
		}
		return nil
	})
}
