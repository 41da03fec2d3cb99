package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/intents"
)

// configCmd is `eos config`: tools for the people who write the configuration file.
func configCmd(loadCfg func() (*Config, error)) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Tools for the configuration file: check it before a restart",
	}
	cmd.AddCommand(configCheckCmd(loadCfg))
	return cmd
}

func configCheckCmd(loadCfg func() (*Config, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Check the configuration as eos serve would, and print the approval policy it gives",
		Long: `Check the configuration (--config FILE or EOS_CONFIG, with the EOS_* variables) as
eos serve does at start-up, without connecting to anything or opening the store: unknown
settings and blocks, verb and risk blocks Eos would not apply (a synonym, another spelling,
an unknown word), environments that are not declared, list entries of platforms that are not
configured or groups the console does not have, durations. Every problem is printed with its
file and line, and the exit status is 1.

On success it prints the effective approval policy: per environment and verb, who may ask,
who approves, how many approvals, whether the requester's own counts, and how long a plan
waits; and the risk rules. With policy_dirs, the policy set that will judge every plan: its
SHA-256 (as the audit log names it), each deciding rule with its file and line, the time-out
and the time zone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			v, err := cfg.validate(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			writePolicy(cmd.OutOrStdout(), cfg, v.policy)
			writePolicyCode(cmd.OutOrStdout(), cfg, v)
			return nil
		},
	}
}

// validate runs every check of the configuration that needs no connection, as `eos serve`
// does before it connects anything, and returns the policy it gives. A catalog folder that is
// not on this machine (the file is often checked before it is deployed) is left out with a
// warning to warn: the check then knows only the other blueprints' operation verbs.
func (c *Config) validate(warn io.Writer) (validated, error) {
	here := *c
	here.CatalogDirs = nil
	for _, d := range c.CatalogDirs {
		if !dirExists(d) {
			fmt.Fprintf(warn, "warning: catalog_dirs: %s is not on this machine; checked without its blueprints\n", d)
			continue
		}
		here.CatalogDirs = append(here.CatalogDirs, d)
	}
	cat, err := loadCatalog(&here)
	if err != nil {
		return validated{}, err
	}
	if err := c.check(intents.NewParser(cat)); err != nil {
		return validated{}, err
	}
	if _, err := c.webConfig(""); err != nil {
		return validated{}, err
	}
	if _, err := c.digests(); err != nil {
		return validated{}, err
	}
	code, zone, err := c.policyCode(context.Background())
	if err != nil {
		return validated{}, err
	}
	if _, err := newLogger(io.Discard, c.LogLevel); err != nil {
		return validated{}, err
	}
	if c.LayerTimeout != "" {
		if d, err := time.ParseDuration(c.LayerTimeout); err != nil || d <= 0 {
			return validated{}, fmt.Errorf("layer_timeout %q is not a positive duration like \"30m\"", c.LayerTimeout)
		}
	}
	p, err := c.policy()
	return validated{policy: p, code: code, zone: zone}, err
}

// validated is what validate found the configuration gives: the approval policy, and the
// policy set of policy_dirs (nil without) with the time zone its rules read the time in.
type validated struct {
	policy bot.Policy
	code   *rego.Set
	zone   *time.Location
}

// writePolicy prints the effective policy of every environment requests may name, one row per
// verb with a rule of its own, one for the other verbs, and one per risk rule.
func writePolicy(w io.Writer, c *Config, p bot.Policy) {
	envs := c.environments()
	if !slices.Contains(envs, c.DefaultEnv) {
		envs = append(envs, c.DefaultEnv)
		slices.Sort(envs)
	}
	fmt.Fprintf(w, "The configuration is valid. Environments: %s (default %s).\n\n", strings.Join(envs, ", "), c.DefaultEnv)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ENV\tVERB\tREQUESTERS\tAPPROVERS\tAPPROVALS\tSELF-APPROVAL\tTTL")
	risks := false
	for _, env := range envs {
		base, ok := p.Envs[env]
		if !ok {
			base = p.Default
		}
		verbs := slices.Sorted(maps.Keys(base.Verbs))
		for _, verb := range verbs {
			writeRule(tw, env, verb, p.For(env, verb))
		}
		other := "every verb"
		if len(verbs) > 0 {
			other = "every other verb"
		}
		writeRule(tw, env, other, p.For(env, ""))
		for _, risk := range slices.Sorted(maps.Keys(base.Risks)) {
			rp := base.Risks[risk]
			risks = true
			approvers := "the verb rule's"
			if len(rp.Approvers) > 0 {
				approvers = strings.Join(rp.Approvers, ", ")
			}
			fmt.Fprintf(tw, "%s\trisk %s\t-\t%s\t%d\t%s\t-\n", env, risk, approvers, max(rp.Approvals, 1), onOff(rp.SelfApproval))
		}
	}
	tw.Flush()
	note := "\nEmpty lists mean anyone."
	if risks {
		note += " A risk rule judges every plan that carries the risk (data-loss: it destroys or replaces a resource its blueprint marks as holding data), whatever its verb, beside the verb's rule."
	}
	fmt.Fprintln(w, note)
	fmt.Fprintln(w, "Requests for other environments are refused; one that still holds services deployed before the configuration left it out answers only destroy, status, drift and history, under the rule for environments without their own.")
}

func writeRule(w io.Writer, env, verb string, ep bot.EnvPolicy) {
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", env, verb, anyone(ep.Requesters), anyone(ep.Approvers), ep.Approvals,
		onOff(ep.SelfApproval), render.ShortDuration(ep.TTL))
}

func anyone(list []string) string {
	if len(list) == 0 {
		return "anyone"
	}
	return strings.Join(list, ", ")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
