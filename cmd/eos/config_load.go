package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// loadConfig reads path (if not empty), applies EOS_* overrides and fills defaults.
func loadConfig(path string) (*Config, error) {
	cfg := &Config{}
	if path != "" {
		// Read here, not by HCL, whose error for a missing file names no cause ("<nil>: Failed
		// to read file").
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading the configuration: %w", err)
		}
		f, diags := hclparse.NewParser().ParseHCL(src, path)
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
	set(&c.LogFile, "EOS_LOG_FILE")
	set(&c.Listen, "EOS_LISTEN")
	if getenv("EOS_WEB_URL") != "" {
		if c.Web == nil {
			c.Web = &WebBlock{}
		}
		set(&c.Web.URL, "EOS_WEB_URL")
	}
	if getenv("EOS_STORE_DSN") != "" || getenv("EOS_STORE_TYPE") != "" {
		if c.Store == nil {
			c.Store = &StoreConfig{}
		}
		set(&c.Store.DSN, "EOS_STORE_DSN")
		set(&c.Store.Type, "EOS_STORE_TYPE")
	}
	if v := getenv("EOS_CATALOG_DIRS"); v != "" {
		c.CatalogDirs = filepath.SplitList(v)
	}
	if v := getenv("EOS_POLICY_DIRS"); v != "" {
		c.PolicyDirs = filepath.SplitList(v)
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
		set(&c.Salt.Username, "EOS_SALT_USERNAME")
		set(&c.Salt.EAuth, "EOS_SALT_EAUTH")
		if v := getenv("EOS_SALT_TARGETS"); v != "" {
			c.Salt.Targets = strings.Split(v, ",")
		}
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
	if c.Store == nil {
		c.Store = &StoreConfig{}
	}
	if c.Store.Type == "" {
		c.Store.Type = "bbolt"
		if c.Store.DSN != "" {
			c.Store.Type = "postgres"
		}
	}
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
