package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/executor/vault"
)

// policy turns the policy blocks into the engine's Policy. Without any block Eos uses the
// built-in policy (bot.DefaultPolicy); once one block is configured, the blocks are the whole
// policy: the built-ins are gone, `policy "default"` governs every environment without a
// block of its own (local included), and without a default block those need one approval from
// anyone but the requester.
func (c *Config) policy() (bot.Policy, error) {
	if len(c.Policies) == 0 {
		return bot.DefaultPolicy(), nil
	}
	p := bot.Policy{Default: bot.EnvPolicy{Approvals: 1}, Envs: map[string]bot.EnvPolicy{}}
	for _, pc := range c.Policies {
		ep := bot.EnvPolicy{Requesters: pc.Requesters, Approvers: pc.Approvers, Approvals: pc.Approvals, SelfApproval: pc.SelfApproval}
		for _, v := range pc.Verbs {
			if ep.Verbs == nil {
				ep.Verbs = map[string]bot.VerbPolicy{}
			}
			ep.Verbs[v.Verb] = bot.VerbPolicy{Requesters: v.Requesters, Approvers: v.Approvers, Approvals: v.Approvals, SelfApproval: v.SelfApproval}
		}
		for _, r := range pc.Risks {
			if !slices.Contains(bot.Risks, r.Risk) {
				return p, fmt.Errorf("policy %q: unknown risk %q; a policy can name %s", pc.Env, r.Risk, strings.Join(bot.Risks, ", "))
			}
			if ep.Risks == nil {
				ep.Risks = map[string]bot.RiskPolicy{}
			}
			ep.Risks[r.Risk] = bot.RiskPolicy{Approvers: r.Approvers, Approvals: r.Approvals, SelfApproval: r.SelfApproval}
		}
		if pc.TTL != "" {
			d, err := time.ParseDuration(pc.TTL)
			if err != nil || d <= 0 {
				return p, fmt.Errorf("policy %q: ttl %q is not a duration like 30m", pc.Env, pc.TTL)
			}
			ep.TTL = d
		}
		if pc.Env == "default" {
			p.Default = ep
		} else {
			p.Envs[pc.Env] = ep
		}
	}
	return p, nil
}

// environments are the environments the configuration names: an `environments` list, policy
// blocks other than "default", variants, digests' envs. Requests may name those and the
// default environment (the engine adds it: with none named, it is the only one).
func (c *Config) environments() []string {
	seen := map[string]bool{}
	var out []string
	add := func(env string) {
		if env != "" && !seen[env] {
			seen[env] = true
			out = append(out, env)
		}
	}
	for _, env := range c.Environments {
		add(env)
	}
	for _, pc := range c.Policies {
		if pc.Env != "default" {
			add(pc.Env)
		}
	}
	if c.Terraform != nil {
		for env := range c.Terraform.Variants {
			add(env)
		}
	}
	for _, d := range c.Digests {
		for _, env := range d.Envs {
			add(env)
		}
	}
	sort.Strings(out)
	return out
}

// consoleEnabled says whether `eos serve` runs the console.
func (c *Config) consoleEnabled() bool {
	if c.Console.Enabled != nil {
		return *c.Console.Enabled
	}
	return c.Mattermost == nil && c.Slack == nil && c.Discord == nil
}

// consoleGroups are the console's groups (Console is always set once the config is loaded).
func (c *Config) consoleGroups() map[string][]string {
	if c.Console == nil {
		return nil
	}
	return c.Console.Groups
}

// cacheDir is Eos's cache outside any checkout: ${XDG_CACHE_HOME:-$HOME/.cache}/eos.
func cacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "eos")
	}
	if d, err := os.UserHomeDir(); err == nil {
		return filepath.Join(d, ".cache", "eos")
	}
	return filepath.Join(os.TempDir(), "eos-cache")
}

func dirExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// digests turns the digest blocks into the engine's Digests.
func (c *Config) digests() ([]bot.Digest, error) {
	var out []bot.Digest
	for _, d := range c.Digests {
		loc := time.UTC
		if d.Timezone != "" {
			l, err := time.LoadLocation(d.Timezone)
			if err != nil {
				return nil, fmt.Errorf("digest %q: time zone %q: %w", d.Name, d.Timezone, err)
			}
			loc = l
		}
		var timeout time.Duration
		if d.CheckTimeout != "" {
			t, err := time.ParseDuration(d.CheckTimeout)
			if err != nil || t <= 0 {
				return nil, fmt.Errorf("digest %q: check_timeout %q is not a duration like \"5m\"", d.Name, d.CheckTimeout)
			}
			timeout = t
		}
		if d.Parallelism < 0 {
			return nil, fmt.Errorf("digest %q: parallelism %d: want 1 or more (0 means the number of cores)", d.Name, d.Parallelism)
		}
		out = append(out, bot.Digest{Name: d.Name, Platform: d.Platform, Channel: d.Channel, Schedule: d.Schedule,
			Location: loc, Envs: d.Envs, Services: d.Services, Parallelism: d.Parallelism, CheckTimeout: timeout})
	}
	return out, nil
}

// secretsPath is where the refusal of a typed secret says Eos keeps it: the unit's entry in
// the Vault mount and the secret's key in it ("secret/eos/{env}/{service}, key {name}"). It
// names the default layout when Vault is not configured, for the message that says where a
// configured Vault would keep it.
func (c *Config) secretsPath() string {
	var mount, tmpl string
	if c.Vault != nil {
		mount, tmpl = c.Vault.Mount, c.Vault.PathTemplate
	}
	if mount = strings.Trim(mount, "/"); mount == "" {
		mount = vault.DefaultMount
	}
	if tmpl == "" {
		tmpl = vault.DefaultPathTemplate
	}
	return mount + "/" + strings.Trim(tmpl, "/") + ", key {name}"
}
