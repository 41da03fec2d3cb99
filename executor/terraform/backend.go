package terraform

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Backend types the layer knows how to configure.
const (
	BackendLocal  = "local"
	BackendPg     = "pg"
	BackendConsul = "consul"
	BackendS3     = "s3"
)

// backendFile is the override file that selects the backend in a unit's directory. Terraform
// merges files ending in _override.tf over the module, so a blueprint's own terraform block
// keeps its required_providers; the eos- prefix is reserved, so no module file can clash.
const backendFile = "eos-backend_override.tf"

// pgDefaultSchema is the pg backend's schema when schema_name is not set.
const pgDefaultSchema = "terraform_remote_state"

// BackendConfig selects where Terraform keeps state and its lock.
//
// With any backend but local, each unit's state is the Terraform workspace "<env>_<service>"
// (see workspaceName), so one backend configuration serves every unit. Workspaces rather than
// a pg schema per unit: the pg backend holds a database-wide "creation" lock for the whole of
// any command on a workspace that has no row yet, and the default workspace of a new schema
// gets its row only when its first apply persists state; a schema per unit would make every
// first apply block every other unit's plans. A named workspace gets its row at once from
// `terraform workspace new`, and from then on each unit locks only its own row.
type BackendConfig struct {
	// Type is local (the default: state in each unit's working directory), pg, consul or s3.
	Type string
	// Config holds the backend's arguments, e.g. conn_str and schema_name for pg. Never logged:
	// connection strings and tokens are secrets. Secret arguments (pg conn_str, consul
	// access_token, s3 access_key, secret_key and token) reach Terraform through its
	// environment, never through -backend-config, which Terraform records in
	// .terraform/terraform.tfstate; the others are passed with -backend-config at init.
	Config map[string]string
}

// secretArgs maps each backend's secret arguments to the environment variable Terraform reads
// them from.
var secretArgs = map[string]map[string]string{
	BackendPg:     {"conn_str": "PG_CONN_STR"},
	BackendConsul: {"access_token": "CONSUL_HTTP_TOKEN"},
	BackendS3:     {"access_key": "AWS_ACCESS_KEY_ID", "secret_key": "AWS_SECRET_ACCESS_KEY", "token": "AWS_SESSION_TOKEN"},
}

// normalise fills in the default type and checks the arguments.
func (b *BackendConfig) normalise() error {
	if b.Type == "" {
		b.Type = BackendLocal
	}
	switch b.Type {
	case BackendLocal:
		if len(b.Config) > 0 {
			return errors.New("the local backend takes no arguments: its state lives in each unit's working directory")
		}
	case BackendPg, BackendConsul, BackendS3:
	default:
		return fmt.Errorf("unknown backend type %q (want %s, %s, %s or %s)", b.Type, BackendLocal, BackendPg, BackendConsul, BackendS3)
	}
	for k, v := range b.Config {
		if k == "" || strings.ContainsAny(k, "= \t\n\x00") {
			return fmt.Errorf("backend argument name %q is not usable", k)
		}
		if strings.ContainsAny(v, "\n\x00") {
			return fmt.Errorf("backend argument %s: line breaks are not allowed", k)
		}
	}
	if b.Type == BackendPg && b.Config["conn_str"] == "" {
		return errors.New("the pg backend needs conn_str")
	}
	return nil
}

// remote reports whether state lives outside the working directories.
func (b *BackendConfig) remote() bool { return b.Type != BackendLocal }

// secrets are the argument values to redact from every message.
func (b *BackendConfig) secrets() []string {
	var out []string
	for arg := range secretArgs[b.Type] {
		v := b.Config[arg]
		if v == "" {
			continue
		}
		out = append(out, v)
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok {
				out = append(out, p, url.QueryEscape(p))
			}
		}
	}
	return out
}

// env is the environment carrying the secret arguments; appName names the connection in
// PostgreSQL's pg_stat_activity so a lock's holder can be told (see pgLockHolder).
func (b *BackendConfig) env(appName string) map[string]string {
	out := map[string]string{}
	for arg, name := range secretArgs[b.Type] {
		if v := b.Config[arg]; v != "" {
			out[name] = v
		}
	}
	if b.Type == BackendPg {
		out["PG_CONN_STR"] = withAppName(b.Config["conn_str"], appName)
	}
	return out
}

// initArgs are the arguments that are not secret as "key=value" pairs for -backend-config,
// sorted so the command line is stable.
func (b *BackendConfig) initArgs() []string {
	keys := make([]string, 0, len(b.Config))
	for k := range b.Config {
		if _, secret := secretArgs[b.Type][k]; !secret {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	args := make([]string, 0, len(keys))
	for _, k := range keys {
		args = append(args, k+"="+b.Config[k])
	}
	return args
}

// initOptions are initArgs as terraform-exec options.
func (b *BackendConfig) initOptions() []tfexec.InitOption {
	args := b.initArgs()
	opts := make([]tfexec.InitOption, 0, len(args))
	for _, a := range args {
		opts = append(opts, tfexec.BackendConfig(a))
	}
	return opts
}

// pgSchema is the schema the pg backend keeps state in.
func (b *BackendConfig) pgSchema() string {
	if s := b.Config["schema_name"]; s != "" {
		return s
	}
	return pgDefaultSchema
}

// overrideFile is the text of backendFile: an empty backend block, the arguments coming from
// init's -backend-config and the environment (a partial configuration).
func (b *BackendConfig) overrideFile() []byte {
	return []byte(fmt.Sprintf("# Written by Eos: the state backend. Its arguments come from Eos at init.\nterraform {\n  backend %q {}\n}\n", b.Type))
}

// writeBackendFile makes dir select b: the override file for a remote backend, none for local.
func writeBackendFile(dir string, b *BackendConfig) error {
	path := filepath.Join(dir, backendFile)
	if !b.remote() {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", backendFile, err)
		}
		return nil
	}
	if err := writeFileAtomic(path, b.overrideFile(), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", backendFile, err)
	}
	return nil
}

// workspaceName is a unit's workspace in a remote backend: "<env>_<service>". Environment and
// service names never contain "_" (the catalog allows [a-z0-9-]), so no two units share one.
func workspaceName(env, service string) (string, error) {
	if strings.Contains(env, "_") || strings.Contains(service, "_") {
		return "", fmt.Errorf("%s/%s: names with \"_\" cannot be mapped to a workspace of a shared backend", env, service)
	}
	name := env + "_" + service
	if url.PathEscape(name) != name {
		return "", fmt.Errorf("%s/%s: %q is not a valid Terraform workspace name", env, service, name)
	}
	return name, nil
}

// initializedBackend reads which backend type the working directory was last initialised
// with; "local" when it never was, or had no backend block.
func initializedBackend(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) {
		return BackendLocal, nil
	}
	if err != nil {
		return "", err
	}
	var st struct {
		Backend *struct {
			Type string `json:"type"`
		} `json:"backend"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return "", fmt.Errorf("reading .terraform/terraform.tfstate: %w", err)
	}
	if st.Backend == nil || st.Backend.Type == "" {
		return BackendLocal, nil
	}
	return st.Backend.Type, nil
}

// hasLocalState reports whether dir holds state of the local backend.
func hasLocalState(dir string) bool {
	for _, name := range []string{"terraform.tfstate", "terraform.tfstate.d"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && (fi.IsDir() || fi.Size() > 0) {
			return true
		}
	}
	return false
}

// currentWorkspace reads the workspace selected in dir ("default" when none is).
func currentWorkspace(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "environment"))
	if err != nil || strings.TrimSpace(string(b)) == "" {
		return "default"
	}
	return strings.TrimSpace(string(b))
}

// withAppName adds application_name to a PostgreSQL connection string (URL or key=value
// form) unless the operator set one.
func withAppName(conn, name string) string {
	if name == "" || strings.Contains(conn, "application_name") {
		return conn
	}
	if strings.Contains(conn, "://") {
		u, err := url.Parse(conn)
		if err != nil {
			return conn
		}
		q := u.Query()
		q.Set("application_name", name)
		u.RawQuery = q.Encode()
		return u.String()
	}
	esc := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name)
	return strings.TrimSpace(conn) + " application_name='" + esc + "'"
}
