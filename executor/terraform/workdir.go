package terraform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/eosbot/eos/executor"
)

// Files the layer writes into a unit's working directory.
const (
	varsFile     = "eos.tfvars.json"
	driftFile    = "eos-drift.tfplan"
	adoptFile    = "eos-adopt.tfplan"
	rollbackFile = "eos-rollback.tfplan"
)

// unitDir is one unit's working directory. mu serialises every terraform command in it; tf is
// created once per directory so the terraform version is looked up only once.
type unitDir struct {
	mu  sync.Mutex
	key string
	dir string
	// workspace is the unit's Terraform workspace: "default" with the local backend.
	workspace string
	tf        *tfexec.Terraform
	// refused is set when the last apply was refused by the state lock, so nothing of it
	// was applied and there is nothing to roll back.
	refused bool
}

// lockUnit returns the unit's working directory, created if needed, locked until release is
// called.
func (l *Layer) lockUnit(env string, u executor.Unit) (ud *unitDir, release func(), err error) {
	if err := checkName(env); err != nil {
		return nil, nil, fmt.Errorf("environment: %w", err)
	}
	if err := checkName(u.Service); err != nil {
		return nil, nil, fmt.Errorf("service: %w", err)
	}
	key := u.Key(env)
	l.mu.Lock()
	ud, ok := l.units[key]
	if !ok {
		ws := "default"
		if l.backend.remote() {
			if ws, err = workspaceName(env, u.Service); err != nil {
				l.mu.Unlock()
				return nil, nil, err
			}
		}
		ud = &unitDir{key: key, dir: filepath.Join(l.workDir, env, u.Service), workspace: ws}
		l.units[key] = ud
	}
	l.mu.Unlock()

	ud.mu.Lock()
	if err := os.MkdirAll(ud.dir, 0o750); err != nil {
		ud.mu.Unlock()
		return nil, nil, fmt.Errorf("creating the working directory for %s: %w", key, err)
	}
	if ud.tf == nil {
		tf, err := tfexec.NewTerraform(ud.dir, l.bin)
		if err != nil {
			ud.mu.Unlock()
			return nil, nil, fmt.Errorf("preparing terraform for %s: %w", key, err)
		}
		if err := tf.SetEnv(l.env); err != nil {
			ud.mu.Unlock()
			return nil, nil, fmt.Errorf("preparing terraform for %s: %w", key, err)
		}
		ud.tf = tf
	}
	return ud, ud.mu.Unlock, nil
}

// checkName refuses names that would escape WorkDir or be awkward as directory names, and
// hidden names, which the layer keeps for itself (WorkDir/.eos-init).
func checkName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%q is not a usable name", s)
	case strings.ContainsAny(s, `/\`+"\x00"):
		return fmt.Errorf("%q must not contain path separators", s)
	case strings.HasPrefix(s, "."):
		return fmt.Errorf("%q: names starting with a dot are reserved", s)
	}
	return nil
}

// writeModule makes dir hold exactly part's module: it writes part.Files and the variables as
// eos.tfvars.json, and removes configuration and auto-loaded variable files the spec no longer
// has. Terraform's own files (.terraform/, .terraform.lock.hcl, terraform.tfstate*) are kept.
func writeModule(dir string, part *executor.TerraformPart) error {
	for name := range part.Files {
		if err := checkFileName(name); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("reading %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if _, keep := part.Files[name]; keep || name == backendFile || !e.Type().IsRegular() || !isConfigFile(name) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("removing stale %s: %w", name, err)
		}
	}
	for name, text := range part.Files {
		if err := writeFileAtomic(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	vars, err := varsJSON(part.Vars)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, varsFile), vars, 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", varsFile, err)
	}
	return nil
}

// varsJSON encodes the variables as a tfvars JSON object with their types kept.
func varsJSON(vars map[string]any) ([]byte, error) {
	if vars == nil {
		vars = map[string]any{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(vars); err != nil {
		return nil, fmt.Errorf("encoding the module variables: %w", err)
	}
	return buf.Bytes(), nil
}

// isConfigFile reports whether Terraform reads name from a module directory on its own: a
// configuration file or an automatically loaded variable file.
func isConfigFile(name string) bool {
	for _, suffix := range []string{".tf", ".tf.json", ".auto.tfvars", ".auto.tfvars.json"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return name == "terraform.tfvars" || name == "terraform.tfvars.json"
}

// checkFileName refuses module file names that are not plain names in the directory, or that
// would overwrite what the layer or Terraform own.
func checkFileName(name string) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("module file: %w", err)
	}
	switch {
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("module file %q: hidden files are not allowed", name)
	case strings.HasPrefix(name, "eos.") || strings.HasPrefix(name, "eos-"):
		return fmt.Errorf("module file %q: the eos. and eos- prefixes are reserved", name)
	case strings.HasPrefix(name, "terraform.tfstate"):
		return fmt.Errorf("module file %q: state files are not module files", name)
	}
	return nil
}

// writeFileAtomic replaces path with data so readers never see a half-written file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".eos-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
