package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/eosbot/eos/bot"
)

// Config is the configuration file (HCL, see examples/eos.hcl). Every setting has a default,
// so Eos runs with no file at all; EOS_* environment variables override the file.
type Config struct {
	// DataDir holds the bbolt store and Terraform working directories (EOS_DATA_DIR).
	DataDir string `hcl:"data_dir,optional"`
	// DefaultEnv is the environment of requests that name none (EOS_DEFAULT_ENV).
	DefaultEnv string `hcl:"default_env,optional"`
	// BotName is the name people mention (EOS_BOT_NAME).
	BotName string `hcl:"bot_name,optional"`
	// CatalogDirs are operators' blueprint directories, added to the embedded ones
	// (EOS_CATALOG_DIRS, separated by ':').
	CatalogDirs []string `hcl:"catalog_dirs,optional"`
	// Listen is the address of /healthz and /metrics in `eos serve` (EOS_LISTEN; default
	// 127.0.0.1:9747; "off" disables them).
	Listen string `hcl:"listen,optional"`
	// LogLevel is debug, info, warn or error (EOS_LOG_LEVEL).
	LogLevel string `hcl:"log_level,optional"`

	Terraform  *TerraformConfig  `hcl:"terraform,block"`
	Console    *ConsoleConfig    `hcl:"console,block"`
	Mattermost *MattermostConfig `hcl:"mattermost,block"`
	Slack      *SlackConfig      `hcl:"slack,block"`
	Discord    *DiscordConfig    `hcl:"discord,block"`
	Vault      *VaultConfig      `hcl:"vault,block"`
	Salt       *SaltConfig       `hcl:"salt,block"`
	Nomad      *NomadConfig      `hcl:"nomad,block"`
	Policies   []PolicyConfig    `hcl:"policy,block"`
	Digests    []DigestConfig    `hcl:"digest,block"`
}

// DigestConfig schedules a drift digest.
type DigestConfig struct {
	Name string `hcl:"name,label"`
	// Platform is the adapter that posts it: mattermost or console.
	Platform string `hcl:"platform"`
	// Channel is "team/channel" (Mattermost) or "local" (console).
	Channel string `hcl:"channel"`
	// Schedule is a cron line, like "0 8 * * 1-5".
	Schedule string `hcl:"schedule"`
	// Timezone is an IANA zone name for the schedule (default UTC).
	Timezone string `hcl:"timezone,optional"`
	// Envs and Services limit what it covers; empty means everything.
	Envs     []string `hcl:"envs,optional"`
	Services []string `hcl:"services,optional"`
	// Parallelism is how many services are checked at once (default: the number of cores).
	Parallelism int `hcl:"parallelism,optional"`
	// CheckTimeout bounds one service's check, like "5m" (default); a check that runs out of
	// time is reported unknown, never clean.
	CheckTimeout string `hcl:"check_timeout,optional"`
}

// TerraformConfig configures the Terraform layer.
type TerraformConfig struct {
	// Binary is the terraform executable; empty means PATH (EOS_TERRAFORM_BINARY).
	Binary string `hcl:"binary,optional"`
	// Mirror is a filesystem provider mirror (EOS_TERRAFORM_MIRROR).
	Mirror string `hcl:"mirror,optional"`
	// MirrorInclude lists the providers served by Mirror (default registry.terraform.io/eos/*).
	MirrorInclude []string `hcl:"mirror_include,optional"`
	// Variants maps environments to the blueprints' variant they use, for the Terraform and
	// the Nomad parts alike (e.g. { production = "production" }: Hetzner, Cloudflare and
	// docker jobs); others use "local": the simulated cloud and raw_exec jobs.
	Variants map[string]string `hcl:"variants,optional"`
	// CloudDir is where the local variant's simulated cloud (eoslab) keeps its objects
	// (default DATA_DIR/cloud).
	CloudDir string `hcl:"cloud_dir,optional"`
	// Rollback is failed-layer (default), all or none.
	Rollback string `hcl:"rollback,optional"`
	// Timeout bounds one terraform command, like "10m".
	Timeout string `hcl:"timeout,optional"`
	// LockTimeout is how long plan and apply wait for a state lock another run holds, like
	// "30s"; default 0: refuse at once, naming the holder.
	LockTimeout string `hcl:"lock_timeout,optional"`
	// Backend is where Terraform keeps state and its lock (default local, in DATA_DIR).
	Backend *BackendBlock `hcl:"backend,block"`
}

// BackendBlock selects Terraform's state backend:
//
//	backend {
//	  type   = "pg"
//	  config = { conn_str = "postgres://eos@db/eos_state" }
//	}
type BackendBlock struct {
	// Type is local, pg, consul or s3.
	Type string `hcl:"type"`
	// Config holds the backend's arguments (conn_str, schema_name, ...); secret ones reach
	// Terraform through its environment only.
	Config map[string]string `hcl:"config,optional"`
}

// ConsoleConfig configures the terminal chat of `eos serve`.
type ConsoleConfig struct {
	// Enabled runs the console in `eos serve`; by default it runs when no other adapter is
	// configured.
	Enabled *bool `hcl:"enabled,optional"`
	// User is the name the console user approves as (default $USER).
	User string `hcl:"user,optional"`
	// Groups are the console's user groups, for "group:NAME" in the policy
	// (groups = { sre = ["bob", "dave"] }).
	Groups map[string][]string `hcl:"groups,optional"`
}

// MattermostConfig connects to a Mattermost server.
type MattermostConfig struct {
	// URL of the server (EOS_MATTERMOST_URL).
	URL string `hcl:"url,optional"`
	// Token is the bot account's token; prefer EOS_MATTERMOST_TOKEN to writing it here.
	Token string `hcl:"token,optional"`
	// Channels the bot serves, as "team/channel" (EOS_MATTERMOST_CHANNELS, comma-separated).
	Channels []string `hcl:"channels,optional"`
}

// VaultConfig connects the secrets store (KV v2).
type VaultConfig struct {
	// Address of Vault (EOS_VAULT_ADDR).
	Address string `hcl:"address,optional"`
	// Token; prefer EOS_VAULT_TOKEN. Or AppRole: role_id and secret_id (EOS_VAULT_SECRET_ID).
	Token    string `hcl:"token,optional"`
	RoleID   string `hcl:"role_id,optional"`
	SecretID string `hcl:"secret_id,optional"`
	// Mount is the KV v2 mount (default "secret"); PathTemplate places secrets under it
	// (default "eos/{env}/{service}/{name}").
	Mount        string `hcl:"mount,optional"`
	PathTemplate string `hcl:"path_template,optional"`
	// ProviderPath holds provider credentials (HCLOUD_TOKEN, CLOUDFLARE_API_TOKEN) handed to
	// Terraform through its environment (default "eos/providers").
	ProviderPath string `hcl:"provider_path,optional"`
	// CACert is a PEM file of CAs to trust for https.
	CACert string `hcl:"ca_cert,optional"`
}

// SaltConfig connects the Salt layer to salt-api (rest_cherrypy).
type SaltConfig struct {
	// URL of salt-api (EOS_SALT_URL).
	URL string `hcl:"url,optional"`
	// Username and Password for eauth; prefer EOS_SALT_PASSWORD for the password.
	Username string `hcl:"username,optional"`
	Password string `hcl:"password,optional"`
	// EAuth is the external auth backend (default pam).
	EAuth string `hcl:"eauth,optional"`
	// Targets are the default minions (a glob like "*" or a list).
	Targets []string `hcl:"targets,optional"`
	// DisableEvents stops following salt-api's /events stream during an apply (progress then
	// comes per minion, from polling /jobs).
	DisableEvents bool `hcl:"disable_events,optional"`
}

// NomadConfig connects the Nomad layer.
type NomadConfig struct {
	// Address of the Nomad HTTP API (EOS_NOMAD_ADDR).
	Address string `hcl:"address,optional"`
	Region  string `hcl:"region,optional"`
	// Namespace overrides the jobs' namespace.
	Namespace string `hcl:"namespace,optional"`
	// Token is an ACL token; prefer EOS_NOMAD_TOKEN.
	Token string `hcl:"token,optional"`
	// CACert is a PEM file of CAs to trust for https.
	CACert string `hcl:"ca_cert,optional"`
	// DeployTimeout bounds waiting for a deployment to become healthy (default 5m).
	DeployTimeout string `hcl:"deploy_timeout,optional"`
}

// SlackConfig connects to Slack in Socket Mode (no public endpoint needed).
type SlackConfig struct {
	// AppToken (xapp-…, EOS_SLACK_APP_TOKEN) opens the socket; BotToken (xoxb-…,
	// EOS_SLACK_BOT_TOKEN) calls the Web API. Prefer the variables to writing them here.
	AppToken string `hcl:"app_token,optional"`
	BotToken string `hcl:"bot_token,optional"`
	// AdminUserToken (xoxp-…, EOS_SLACK_ADMIN_USER_TOKEN), optional, is a workspace admin's
	// user token, used only to delete a message in which someone typed a secret: a bot token
	// may delete only the bot's own messages.
	AdminUserToken string `hcl:"admin_user_token,optional"`
	// Channels the bot serves (ids or names); empty means every channel it is in, plus DMs.
	Channels []string `hcl:"channels,optional"`
}

// DiscordConfig connects to Discord's gateway.
type DiscordConfig struct {
	// Token is the bot token (EOS_DISCORD_TOKEN).
	Token string `hcl:"token,optional"`
	// Channels the bot serves (ids); empty means every channel it sees, plus DMs.
	Channels []string `hcl:"channels,optional"`
	// Guild is the server (guild id) whose roles stand for "group:NAME" in the policy; empty
	// means the bot's only guild.
	Guild string `hcl:"guild,optional"`
}

// PolicyConfig is the approval policy of one environment; the label "default" applies to
// environments without their own block.
type PolicyConfig struct {
	Env          string   `hcl:"env,label"`
	Requesters   []string `hcl:"requesters,optional"`
	Approvers    []string `hcl:"approvers,optional"`
	Approvals    int      `hcl:"approvals,optional"`
	SelfApproval bool     `hcl:"self_approval,optional"`
	TTL          string   `hcl:"ttl,optional"`
	// Verbs make single verbs stricter: verb "destroy" { approvals = 2 }.
	Verbs []VerbPolicyConfig `hcl:"verb,block"`
}

// VerbPolicyConfig overrides an environment's policy for one verb.
type VerbPolicyConfig struct {
	Verb         string   `hcl:"verb,label"`
	Requesters   []string `hcl:"requesters,optional"`
	Approvers    []string `hcl:"approvers,optional"`
	Approvals    int      `hcl:"approvals,optional"`
	SelfApproval bool     `hcl:"self_approval,optional"`
}

// loadConfig reads path (if not empty), applies EOS_* overrides and fills defaults.
func loadConfig(path string) (*Config, error) {
	cfg := &Config{}
	if path != "" {
		f, diags := hclparse.NewParser().ParseHCLFile(path)
		if diags.HasErrors() {
			return nil, fmt.Errorf("reading %s: %s", path, diags.Error())
		}
		if diags := gohcl.DecodeBody(f.Body, nil, cfg); diags.HasErrors() {
			return nil, fmt.Errorf("reading %s: %s", path, diags.Error())
		}
	}
	cfg.applyEnv(os.Getenv)
	cfg.defaults()
	return cfg, nil
}

func (c *Config) applyEnv(getenv func(string) string) {
	set := func(dst *string, key string) {
		if v := getenv(key); v != "" {
			*dst = v
		}
	}
	set(&c.DataDir, "EOS_DATA_DIR")
	set(&c.DefaultEnv, "EOS_DEFAULT_ENV")
	set(&c.BotName, "EOS_BOT_NAME")
	set(&c.LogLevel, "EOS_LOG_LEVEL")
	set(&c.Listen, "EOS_LISTEN")
	if v := getenv("EOS_CATALOG_DIRS"); v != "" {
		c.CatalogDirs = filepath.SplitList(v)
	}
	if c.Terraform == nil {
		c.Terraform = &TerraformConfig{}
	}
	set(&c.Terraform.Binary, "EOS_TERRAFORM_BINARY")
	set(&c.Terraform.Mirror, "EOS_TERRAFORM_MIRROR")
	if getenv("EOS_VAULT_ADDR") != "" && c.Vault == nil {
		c.Vault = &VaultConfig{}
	}
	if c.Vault != nil {
		set(&c.Vault.Address, "EOS_VAULT_ADDR")
		set(&c.Vault.Token, "EOS_VAULT_TOKEN")
		set(&c.Vault.SecretID, "EOS_VAULT_SECRET_ID")
	}
	if getenv("EOS_NOMAD_ADDR") != "" && c.Nomad == nil {
		c.Nomad = &NomadConfig{}
	}
	if c.Nomad != nil {
		set(&c.Nomad.Address, "EOS_NOMAD_ADDR")
		set(&c.Nomad.Token, "EOS_NOMAD_TOKEN")
	}
	if getenv("EOS_SALT_URL") != "" && c.Salt == nil {
		c.Salt = &SaltConfig{}
	}
	if c.Salt != nil {
		set(&c.Salt.URL, "EOS_SALT_URL")
		set(&c.Salt.Password, "EOS_SALT_PASSWORD")
	}
	if getenv("EOS_SLACK_APP_TOKEN") != "" && c.Slack == nil {
		c.Slack = &SlackConfig{}
	}
	if c.Slack != nil {
		set(&c.Slack.AppToken, "EOS_SLACK_APP_TOKEN")
		set(&c.Slack.BotToken, "EOS_SLACK_BOT_TOKEN")
		set(&c.Slack.AdminUserToken, "EOS_SLACK_ADMIN_USER_TOKEN")
	}
	if getenv("EOS_DISCORD_TOKEN") != "" && c.Discord == nil {
		c.Discord = &DiscordConfig{}
	}
	if c.Discord != nil {
		set(&c.Discord.Token, "EOS_DISCORD_TOKEN")
	}
	if getenv("EOS_MATTERMOST_URL") != "" && c.Mattermost == nil {
		c.Mattermost = &MattermostConfig{}
	}
	if c.Mattermost != nil {
		set(&c.Mattermost.URL, "EOS_MATTERMOST_URL")
		set(&c.Mattermost.Token, "EOS_MATTERMOST_TOKEN")
		if v := getenv("EOS_MATTERMOST_CHANNELS"); v != "" {
			c.Mattermost.Channels = strings.Split(v, ",")
		}
	}
}

func (c *Config) defaults() {
	if c.DataDir == "" {
		c.DataDir = ".eos"
	}
	if c.Listen == "" {
		c.Listen = "127.0.0.1:9747"
	}
	if c.DefaultEnv == "" {
		c.DefaultEnv = "local"
	}
	if c.BotName == "" {
		c.BotName = "eos"
	}
	if c.Console == nil {
		c.Console = &ConsoleConfig{}
	}
	if c.Console.User == "" {
		c.Console.User = os.Getenv("USER")
	}
	if c.Console.User == "" {
		c.Console.User = "you"
	}
	if c.Terraform.CloudDir == "" {
		c.Terraform.CloudDir = filepath.Join(c.DataDir, "cloud")
	}
	// Terraform runs providers in each unit's working directory: the path must not be relative.
	if abs, err := filepath.Abs(c.Terraform.CloudDir); err == nil {
		c.Terraform.CloudDir = abs
	}
	if c.Terraform.Mirror == "" {
		// make builds Eos's own provider (eoslab) into the cache; use it when it is there.
		if d := filepath.Join(cacheDir(), "providers"); dirExists(d) {
			c.Terraform.Mirror = d
		}
	}
	if len(c.Terraform.MirrorInclude) == 0 {
		c.Terraform.MirrorInclude = []string{"registry.terraform.io/eos/*"}
	}
}

// policy turns the policy blocks into the engine's Policy.
func (c *Config) policy() (bot.Policy, error) {
	p := bot.DefaultPolicy()
	for _, pc := range c.Policies {
		ep := bot.EnvPolicy{Requesters: pc.Requesters, Approvers: pc.Approvers, Approvals: pc.Approvals, SelfApproval: pc.SelfApproval}
		for _, v := range pc.Verbs {
			if ep.Verbs == nil {
				ep.Verbs = map[string]bot.VerbPolicy{}
			}
			ep.Verbs[v.Verb] = bot.VerbPolicy{Requesters: v.Requesters, Approvers: v.Approvers, Approvals: v.Approvals, SelfApproval: v.SelfApproval}
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

// secretsPath is where the refusal of a typed secret says Eos keeps it: the Vault mount and
// path template.
func (c *Config) secretsPath() string {
	if c.Vault == nil {
		return ""
	}
	mount, tmpl := c.Vault.Mount, c.Vault.PathTemplate
	if mount == "" {
		mount = "secret"
	}
	if tmpl == "" {
		tmpl = "eos/{env}/{service}/{name}"
	}
	return mount + "/" + tmpl
}
