package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/bot/store/pgtest"
	"github.com/eosbot/eos/executor"
)

// `eos store migrate --from bbolt PATH` moves a team's history into PostgreSQL: afterwards
// `eos audit` on the PostgreSQL store shows it, and migrating twice is refused.
func TestStoreMigrateFromBbolt(t *testing.T) {
	dsn := pgtest.Database(t)
	bin := eosBinary(t)
	path := filepath.Join(t.TempDir(), "eos.db")
	src, err := store.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	plan := &store.Plan{ID: "7f3a9c21", State: store.PlanPending, Text: "create grafana", Needed: 1,
		Requester: adapters.User{ID: "u1", Name: "alice"}, Preview: adapters.PostRef{Platform: "mattermost", Channel: "c", ID: "p"},
		Plan: executor.Plan{Spec: executor.Spec{Verb: "create", Target: "grafana", Env: "local"}, Hash: "abc"}, Created: at, Expires: at.Add(time.Hour)}
	if err := src.CreatePlan(context.Background(), plan, store.Entry{At: at, Kind: "request", User: "alice", PlanID: plan.ID, Service: "grafana", Env: "local", Text: "create grafana"}); err != nil {
		t.Fatal(err)
	}
	src.Close()

	env := append(os.Environ(), "EOS_STORE_DSN="+dsn, "EOS_DATA_DIR="+t.TempDir(), "EOS_LOG_LEVEL=warn")
	eos := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := eos("store", "migrate", "--from", "bbolt", path)
	if err != nil {
		t.Fatalf("eos store migrate: %v\n%s", err, out)
	}
	for _, want := range []string{"copied " + path + " into PostgreSQL", "plans         1", "audit         1"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrate output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, dsn) {
		t.Errorf("migrate printed the DSN:\n%s", out)
	}
	out, err = eos("audit")
	if err != nil || !strings.Contains(out, "create grafana") || !strings.Contains(out, "alice") {
		t.Fatalf("eos audit on the PostgreSQL store: %v\n%s", err, out)
	}
	pg, err := store.OpenPostgres(context.Background(), dsn, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if got, err := pg.Plan(context.Background(), plan.ID); err != nil || got.Requester.Name != "alice" {
		t.Fatalf("migrated plan = %+v, %v", got, err)
	}
	out, err = eos("store", "migrate", "--from", "bbolt", path)
	if err == nil || !strings.Contains(out, "not empty") {
		t.Fatalf("a second migrate into the same database: %v\n%s", err, out)
	}
}

// The store's configuration: a DSN alone means PostgreSQL; a wrong type or a PostgreSQL store
// without a DSN is refused before anything starts, saying what to write.
func TestStoreConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		store   *StoreConfig
		env     map[string]string
		want    string // the type, or the start of the error
		wantErr bool
	}{
		{"default", nil, nil, "bbolt", false},
		{"a DSN in the environment", nil, map[string]string{"EOS_STORE_DSN": "postgres://eos@db/eos"}, "postgres", false},
		{"unknown type", &StoreConfig{Type: "mysql"}, nil, `store: unknown type "mysql": bbolt or postgres`, true},
		{"postgres without a DSN", &StoreConfig{Type: "postgres"}, nil, "store: type postgres needs a dsn", true},
		{"bbolt with a DSN", &StoreConfig{Type: "bbolt", DSN: "postgres://eos@db/eos"}, nil, "store: type bbolt takes no dsn", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &Config{DataDir: t.TempDir(), Store: tc.store}
			cfg.applyEnv(func(k string) string { return tc.env[k] })
			cfg.defaults()
			if !tc.wantErr {
				if cfg.Store.Type != tc.want {
					t.Fatalf("store type = %q, want %q", cfg.Store.Type, tc.want)
				}
				return
			}
			_, err := openStore(context.Background(), cfg)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("openStore: %v, want %q…", err, tc.want)
			}
		})
	}
}
