package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/catalog"
)

// catalogCmd is `eos catalog`: tools for people who write blueprints.
func catalogCmd(loadCfg func() (*Config, error)) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Tools for blueprint authors: check blueprint folders, scaffold a new one",
	}
	cmd.AddCommand(catalogCheckCmd(loadCfg), catalogNewCmd())
	return cmd
}

func catalogCheckCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var terraform string
	cmd := &cobra.Command{
		Use:   "check [DIR...]",
		Short: "Check blueprint folders as a compiler would, printing every problem as file:line:col: message",
		Long: `Check blueprint folders as a compiler would and print every problem as
file:line:col: message; exit with status 1 when there is any, so a team can run it in CI.

Each DIR is a blueprint folder (it holds a manifest.hcl) or a folder of blueprint folders.
Without DIR, eos checks the configured catalog_dirs, or else the shipped blueprints.
Dependencies may name the shipped services.

Checked: the manifest (flags, types, defaults, expressions, dependencies); the variables and
outputs of every Terraform variant against the manifest and each other; the providers each
variant requires; the manifest's values, with example flags, against the types the Terraform
and Nomad variables declare; var.NAME in Nomad jobs; Salt states as YAML once their Jinja is
replaced; and terraform fmt -check on every .tf file (terraform must be installed).`,
		RunE: func(cmd *cobra.Command, dirs []string) error {
			bin := terraform
			if len(dirs) == 0 || bin == "" {
				cfg, err := loadCfg()
				if err != nil {
					return err
				}
				if len(dirs) == 0 {
					dirs = cfg.CatalogDirs
				}
				if bin == "" && cfg.Terraform != nil {
					bin = cfg.Terraform.Binary
				}
			}
			diags := catalog.Check(cmd.Context(), dirs, catalog.CheckOptions{Terraform: bin})
			for _, d := range diags {
				fmt.Fprintln(cmd.ErrOrStderr(), d)
			}
			if n := len(diags); n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%d %s\n", n, plural(n, "problem", "problems"))
				return exitError{}
			}
			checked := "the shipped blueprints"
			if len(dirs) > 0 {
				checked = strings.Join(dirs, ", ")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "no problems in %s\n", checked)
			return nil
		},
	}
	cmd.Flags().StringVar(&terraform, "terraform", "", "terraform binary for terraform fmt (default: the configured one, else PATH)")
	return cmd
}

func catalogNewCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Scaffold a blueprint folder DIR/NAME that passes eos catalog check and deploys locally",
		Long: `Scaffold a new service blueprint in DIR/NAME: a manifest with a description and three
flags, a Salt state, a Terraform module on eoslab (the local variant) and one on Hetzner Cloud
with Cloudflare (the production variant), and a Nomad job. It passes eos catalog check as
written; edit it from there. NAME is lowercase words joined by hyphens, and must not be taken
by a shipped blueprint or an existing folder.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := catalog.Scaffold(dir, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created %s\nnext: describe it in manifest.hcl, then run: eos catalog check %s\n", path, path)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "directory to create the blueprint folder in")
	return cmd
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
