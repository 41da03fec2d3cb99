package terraform

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"
)

func TestBackendConfigNormalise(t *testing.T) {
	tests := []struct {
		name    string
		in      BackendConfig
		wantErr string
	}{
		{"empty is local", BackendConfig{}, ""},
		{"pg", BackendConfig{Type: "pg", Config: map[string]string{"conn_str": "postgres://db/x"}}, ""},
		{"pg without conn_str", BackendConfig{Type: "pg"}, "needs conn_str"},
		{"local with arguments", BackendConfig{Type: "local", Config: map[string]string{"path": "x"}}, "takes no arguments"},
		{"unknown type", BackendConfig{Type: "gcs"}, `unknown backend type "gcs"`},
		{"bad argument name", BackendConfig{Type: "s3", Config: map[string]string{"a=b": "x"}}, "not usable"},
		{"line break", BackendConfig{Type: "s3", Config: map[string]string{"bucket": "a\nb"}}, "line breaks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.in.normalise()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("normalise: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("normalise error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestBackendSecretsGoToTheEnvironment(t *testing.T) {
	b := BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://eos:hunter2@db:5432/state?sslmode=require", "schema_name": "eos"}}
	env := b.env("eos apply root@h pid 1")
	if got, want := env["PG_CONN_STR"], "postgres://eos:hunter2@db:5432/state?application_name=eos+apply+root%40h+pid+1&sslmode=require"; got != want {
		t.Errorf("PG_CONN_STR = %q, want %q", got, want)
	}
	if got, want := b.initOptions(), []tfexec.InitOption{tfexec.BackendConfig("schema_name=eos")}; !reflect.DeepEqual(got, want) {
		t.Errorf("init options = %#v, want only the schema (never the connection string)", got)
	}
	if got := redactor(b.secrets())("dial postgres://eos:hunter2@db:5432/state?sslmode=require failed: hunter2"); strings.Contains(got, "hunter2") {
		t.Errorf("redacted text still has the password: %q", got)
	}
	s3 := BackendConfig{Type: BackendS3, Config: map[string]string{"bucket": "b", "secret_key": "sk-123"}}
	if s3.env("")["AWS_SECRET_ACCESS_KEY"] != "sk-123" || len(s3.initOptions()) != 1 {
		t.Errorf("s3 secret_key not moved to the environment: env %v, %d init options", s3.env(""), len(s3.initOptions()))
	}
}

func TestWithAppName(t *testing.T) {
	tests := []struct{ conn, want string }{
		{"postgres://u@h/db", "postgres://u@h/db?application_name=eos+plan"},
		{"postgres://u@h/db?application_name=ops", "postgres://u@h/db?application_name=ops"},
		{"host=h dbname=db", "host=h dbname=db application_name='eos plan'"},
	}
	for _, tt := range tests {
		if got := withAppName(tt.conn, "eos plan"); got != tt.want {
			t.Errorf("withAppName(%q) = %q, want %q", tt.conn, got, tt.want)
		}
	}
}

func TestWorkspaceName(t *testing.T) {
	if got, err := workspaceName("prod-eu", "web"); err != nil || got != "prod-eu_web" {
		t.Errorf("workspaceName = %q, %v", got, err)
	}
	for _, bad := range [][2]string{{"a_b", "c"}, {"a", "b_c"}, {"a", "b%c"}} {
		if _, err := workspaceName(bad[0], bad[1]); err == nil {
			t.Errorf("workspaceName(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

const lockDetail = "Error message: Workspace is already locked: local_web\nLock Info:\n  ID:        0c209495-b1ac-ac0e-64b7-07294d5eae2a\n  Path:      \n  Operation: OperationTypeApply\n  Who:       root@vm\n  Version:   1.11.4\n  Created:   2026-11-23 03:25:53.471471247 +0000 UTC\n  Info:      \n\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time."

func TestLockInfoOf(t *testing.T) {
	created := time.Date(2026, 11, 23, 3, 25, 53, 471471247, time.UTC)
	want := LockInfo{Who: "root@vm", Operation: "apply", Created: created}
	jsonOut := `{"@level":"info","type":"version"}
{"@level":"error","@message":"Error: Error acquiring the state lock","diagnostic":{"severity":"error","summary":"Error acquiring the state lock","detail":` + jsonString(lockDetail) + `},"type":"diagnostic"}`
	text := "exit status 1\n\n\x1b[31m╷\x1b[0m\n\x1b[31m│\x1b[0m \x1b[1mError: Error acquiring the state lock\x1b[0m\n│ \n"
	for _, line := range strings.Split(lockDetail, "\n") {
		text += "│ " + line + "\n"
	}
	text += "╵\n"
	tests := []struct {
		name, stdout, stderr string
		ok                   bool
	}{
		{"json", jsonOut, "exit status 1", true},
		{"text", "", text, true},
		{"other error", `{"type":"diagnostic","diagnostic":{"severity":"error","summary":"Unsupported argument"}}`, "Error: Unsupported argument", false},
		// Terraform 1.11's answer for a corrupted local state: the lock's summary, but no holder.
		{"unreadable state", `{"@level":"error","diagnostic":{"severity":"error","summary":"Error acquiring the state lock","detail":"Error message: 2 problems:\n\n- Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 2.\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time."},"type":"diagnostic"}`, "exit status 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lockInfoOf([]byte(tt.stdout), tt.stderr)
			if ok != tt.ok || (ok && !got.Created.Equal(want.Created)) || (ok && (got.Who != want.Who || got.Operation != want.Operation)) {
				t.Fatalf("lockInfoOf = %+v, %v; want %+v, %v", got, ok, want, tt.ok)
			}
		})
	}
	err := lockError("plan", "local/grafana", want, func(s string) string { return s })
	if !errors.Is(err, ErrStateLocked) {
		t.Errorf("lock error does not wrap ErrStateLocked: %v", err)
	}
	if got, wantMsg := err.Error(), "terraform plan for local/grafana: the state is locked by root@vm (apply since 03:25:53 UTC); try again when that run is done"; got != wantMsg {
		t.Errorf("message = %q\nwant      %q", got, wantMsg)
	}
	if got := (LockInfo{}).String(); got != "another process" {
		t.Errorf("unknown holder = %q", got)
	}
}

func TestParseAppName(t *testing.T) {
	op, who, ok := parseAppName(appName("apply", "root@vm", 42))
	if !ok || op != "apply" || who != "root@vm pid 42" {
		t.Errorf("parseAppName = %q, %q, %v", op, who, ok)
	}
	if _, _, ok := parseAppName("psql"); ok {
		t.Error("psql taken for an Eos session")
	}
}

// Changing a unit with local state to a remote backend is refused, never migrated silently.
func TestInitRefusesToStrandLocalState(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), []byte(`{"version":4}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &run{l: &Layer{backend: BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://db/x"}}}, ud: &unitDir{key: "local/web", dir: dir}}
	_, err := r.initOptions()
	if err == nil || !strings.Contains(err.Error(), "holds local Terraform state, but the backend is now pg") {
		t.Fatalf("initOptions = %v, want a refusal naming the local state", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
