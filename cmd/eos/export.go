package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

func exportCmd(loadCfg func() (*Config, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "export DIR",
		Short: "Write every service's declared state as files a team can keep in git",
		Long: `Writes DIR/<env>/<service>/ for every deployed service: declared.json (the run that
declared it, when, its values), terraform/ (the module and terraform.tfvars.json), salt/ (the
state and pillar.json) and nomad/ (the job template and variables.json). Files of services no
longer deployed are removed, so the directory mirrors the store. Secrets are never exported.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			r, err := openReader(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer r.Close()
			all, err := r.declared(cmd.Context())
			if err != nil {
				return err
			}
			n, err := export(args[0], all)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported %d services to %s\n", n, args[0])
			return nil
		},
	}
}

// export writes the declared state of every service under dir, replacing what was there, and
// removes what an earlier export wrote for services no longer deployed.
func export(dir string, all []*store.Deployed) (int, error) {
	sort.Slice(all, func(i, j int) bool { return all[i].Key < all[j].Key })
	if err := removeUndeployed(dir, all); err != nil {
		return 0, err
	}
	for _, d := range all {
		env, service, _ := strings.Cut(d.Key, "/")
		root := filepath.Join(dir, env, service)
		if err := os.RemoveAll(root); err != nil {
			return 0, err
		}
		files := map[string][]byte{}
		meta := map[string]any{"service": service, "env": env, "run": d.RunID, "declared_at": d.At.UTC()}
		if len(d.Spec.Units) == 1 {
			u := d.Spec.Units[0]
			meta["values"] = u.Values
			meta["secrets"] = u.Secrets // names only
			addUnitFiles(files, u)
		}
		files["declared.json"] = mustJSON(meta)
		for name, body := range files {
			path := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return 0, err
			}
			if err := os.WriteFile(path, body, 0o644); err != nil {
				return 0, fmt.Errorf("writing %s: %w", path, err)
			}
		}
	}
	return len(all), nil
}

// removeUndeployed removes DIR/<env>/<service> folders that an export wrote (they hold a
// declared.json) for services not in all, and environment folders left empty. Anything else in
// DIR (a README, .git) is the team's and stays.
func removeUndeployed(dir string, all []*store.Deployed) error {
	deployed := map[string]bool{}
	for _, d := range all {
		deployed[d.Key] = true
	}
	envs, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, env := range envs {
		if !env.IsDir() || strings.HasPrefix(env.Name(), ".") {
			continue
		}
		services, err := os.ReadDir(filepath.Join(dir, env.Name()))
		if err != nil {
			return err
		}
		left := len(services)
		for _, svc := range services {
			root := filepath.Join(dir, env.Name(), svc.Name())
			if _, err := os.Stat(filepath.Join(root, "declared.json")); err != nil || deployed[env.Name()+"/"+svc.Name()] {
				continue
			}
			if err := os.RemoveAll(root); err != nil {
				return err
			}
			left--
		}
		if left == 0 {
			if err := os.Remove(filepath.Join(dir, env.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func addUnitFiles(files map[string][]byte, u executor.Unit) {
	if t := u.Terraform; t != nil {
		for name, body := range t.Files {
			files["terraform/"+name] = []byte(body)
		}
		files["terraform/terraform.tfvars.json"] = mustJSON(t.Vars)
	}
	if s := u.Salt; s != nil {
		files["salt/"+filepath.Base(s.State)] = []byte(s.Text)
		files["salt/pillar.json"] = mustJSON(s.Pillar)
	}
	if n := u.Nomad; n != nil {
		files["nomad/job.nomad.hcl"] = []byte(n.Template)
		files["nomad/variables.json"] = mustJSON(n.Vars)
	}
}

func mustJSON(v any) []byte {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return []byte(fmt.Sprintf("%q\n", err.Error()))
	}
	return append(raw, '\n')
}
