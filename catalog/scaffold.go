package catalog

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// scaffold is the template of a new blueprint folder (catalog/scaffold): every occurrence of
// scaffoldName, in file names and contents, becomes the new service's name.
//
//go:embed all:scaffold
var scaffold embed.FS

const scaffoldName = "__NAME__"

// maxScaffoldName keeps the names derived from a service's name (data-NAME, NAME.local.test)
// within the 63 characters of a DNS label or cloud resource name.
const maxScaffoldName = 40

// Scaffold writes a new service blueprint called name into dir/name and returns that path
// (`eos catalog new`). The folder passes Check and deploys with the local variant: a manifest
// with a description and three flags, Salt states for local (files under the minion's data
// directory only, like the shipped blueprints: approving a local plan installs nothing as root)
// and for production (the data volume and packages), Terraform modules for eoslab (local) and
// for Hetzner Cloud with Cloudflare (production), and a Nomad job. It refuses a name that is not
// lowercase words joined by hyphens, that a shipped service has, or whose folder exists.
func Scaffold(dir, name string) (string, error) {
	if !wordName.MatchString(name) || len(name) > maxScaffoldName {
		return "", fmt.Errorf("blueprint name %q must be lowercase words joined by hyphens, at most %d characters, like team-wiki", name, maxScaffoldName)
	}
	if shipped, err := fs.Stat(Embedded().FS, name); err == nil && shipped.IsDir() {
		return "", fmt.Errorf("%s is a shipped blueprint; give yours another name", name)
	}
	target := filepath.Join(dir, name)
	if _, err := os.Lstat(target); err == nil {
		return "", fmt.Errorf("%s already exists; choose another name or directory", target)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("checking %s: %w", target, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := os.Mkdir(target, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", target, err)
	}
	err := fs.WalkDir(scaffold, "scaffold", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "scaffold" {
			return err
		}
		rel := strings.ReplaceAll(strings.TrimPrefix(p, "scaffold/"), scaffoldName, name)
		out := filepath.Join(target, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.Mkdir(out, 0o755)
		}
		data, err := scaffold.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, []byte(strings.ReplaceAll(string(data), scaffoldName, name)), 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("writing blueprint %s: %w", target, err)
	}
	return target, nil
}
