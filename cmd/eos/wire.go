package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
	"github.com/eosbot/eos/executor/salt"
	"github.com/eosbot/eos/executor/terraform"
	"github.com/eosbot/eos/executor/vault"
	"github.com/eosbot/eos/intents"
)

// app is everything a command needs, wired from the configuration.
type app struct {
	cfg    *Config
	log    *slog.Logger
	cat    *catalog.Catalog
	store  *store.Store
	runner *executor.Runner
	engine *bot.Engine
	// secrets is the Vault store when configured; its token renewal runs beside the engine.
	secrets *vault.Store
	// leader is the election among replicas sharing a PostgreSQL store; nil with bbolt.
	leader *leadership
}

// logWriter is where eos serve logs: cfg.LogFile (appended, readable by its owner only),
// named on stderr at start, or stderr itself.
func logWriter(cfg *Config, stderr io.Writer) (io.Writer, func(), error) {
	if cfg.LogFile == "" {
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(cfg.LogFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("log_file: %w", err)
	}
	fmt.Fprintf(stderr, "logs: %s\n", cfg.LogFile)
	return f, func() { f.Close() }, nil
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if level == "" {
		level = "info"
	}
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

func loadCatalog(cfg *Config) (*catalog.Catalog, error) {
	sources := []catalog.Source{catalog.Embedded()}
	for _, d := range cfg.CatalogDirs {
		sources = append(sources, catalog.Dir(d))
	}
	cat, err := catalog.Load(sources...)
	if err != nil {
		return nil, fmt.Errorf("the blueprint catalog has errors:\n%w", err)
	}
	return cat, nil
}

// build opens the store, loads and validates the catalog, connects Vault, and wires the
// layers and the engine. Every wiring mistake surfaces here, before any adapter connects.
func build(ctx context.Context, cfg *Config, log *slog.Logger) (*app, error) {
	web, err := cfg.webConfig(cfg.servedAt)
	if err != nil {
		return nil, err
	}
	cat, err := loadCatalog(cfg)
	if err != nil {
		return nil, err
	}
	if err := cfg.check(intents.NewParser(cat)); err != nil {
		return nil, err
	}
	var secrets *vault.Store
	if vc := cfg.Vault; vc != nil {
		vcfg := vault.Config{Address: vc.Address, Token: vc.Token, Mount: vc.Mount, PathTemplate: vc.PathTemplate,
			ProviderPath: vc.ProviderPath, TLS: vault.TLSConfig{CACert: vc.CACert}, Logger: log.With("secrets", "vault")}
		if vc.RoleID != "" {
			vcfg.AppRole = &vault.AppRole{RoleID: vc.RoleID, SecretID: vc.SecretID}
		}
		if secrets, err = vault.New(ctx, vcfg); err != nil {
			return nil, err
		}
	}
	runner, err := newRunner(ctx, cfg, log, secrets)
	if err != nil {
		return nil, err
	}
	policy, err := cfg.policy()
	if err != nil {
		return nil, err
	}
	code, zone, err := cfg.policyCode(ctx)
	if err != nil {
		return nil, err
	}
	digests, err := cfg.digests()
	if err != nil {
		return nil, err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var lead *leadership
	var leading bot.Leadership
	if cfg.replicated() {
		if lead, err = newLeadership(cfg, log); err != nil {
			st.Close()
			return nil, err
		}
		leading = lead
	}
	engine, err := bot.New(bot.Config{
		Leader:  leading,
		Catalog: cat, Runner: runner, Store: st, Policy: policy, PolicyCode: code, PolicyZone: zone, Environments: cfg.environments(), OpsChannels: cfg.OpsChannels,
		DefaultEnv: cfg.DefaultEnv, BotName: cfg.BotName, Logger: log, SecretsPath: cfg.secretsPath(), Variants: cfg.Terraform.Variants, Digests: digests,
		MaxConcurrent: cfg.MaxConcurrent, Web: web, WorkDirs: []string{cfg.DataDir, filepath.Join(cfg.DataDir, "terraform")},
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	return &app{cfg: cfg, log: log, cat: cat, store: st, runner: runner, engine: engine, secrets: secrets, leader: lead}, nil
}

// providerCredentials are the environment variables the production variants' providers read;
// with Vault configured, Eos hands them to Terraform from Vault.
var providerCredentials = []string{"HCLOUD_TOKEN", "CLOUDFLARE_API_TOKEN"}

func newRunner(ctx context.Context, cfg *Config, log *slog.Logger, secrets *vault.Store) (*executor.Runner, error) {
	tc := cfg.Terraform
	var timeout time.Duration
	if tc.Timeout != "" {
		d, err := time.ParseDuration(tc.Timeout)
		if err != nil {
			return nil, fmt.Errorf("terraform timeout %q: %w", tc.Timeout, err)
		}
		timeout = d
	}
	var lockTimeout time.Duration
	if tc.LockTimeout != "" {
		d, err := time.ParseDuration(tc.LockTimeout)
		if err != nil {
			return nil, fmt.Errorf("terraform lock_timeout %q: %w", tc.LockTimeout, err)
		}
		lockTimeout = d
	}
	var backend *terraform.BackendConfig
	switch b := tc.Backend; {
	case b != nil:
		backend = &terraform.BackendConfig{Type: b.Type, Config: b.Config}
	case cfg.replicated():
		// Replicas on different machines must share Terraform's state too: by default it
		// lives in the store's own database, one workspace per unit, in its own schema.
		backend = &terraform.BackendConfig{Type: "pg", Config: map[string]string{"conn_str": cfg.Store.DSN, "schema_name": "eos_terraform"}}
	}
	env := map[string]string{"EOSLAB_ROOT": tc.CloudDir}
	if secrets != nil {
		creds, err := secrets.ProviderEnv(ctx, providerCredentials)
		if err != nil {
			log.Warn("provider credentials not in Vault; the production variants will need them in the environment", "err", err)
		}
		for k, v := range creds {
			env[k] = v
		}
	}
	tf, err := terraform.New(terraform.Config{
		Binary:         tc.Binary,
		WorkDir:        filepath.Join(cfg.DataDir, "terraform"),
		CLIConfigFile:  filepath.Join(cfg.DataDir, "terraform.rc"),
		PluginCacheDir: filepath.Join(cacheDir(), "terraform-plugins"),
		Mirror:         tc.Mirror,
		MirrorInclude:  mirrorInclude(tc),
		Env:            env,
		Timeout:        timeout,
		LockTimeout:    lockTimeout,
		MaxCommands:    tc.MaxCommands,
		Backend:        backend,
		Logger:         log.With("layer", "terraform"),
	})
	if err != nil {
		if strings.Contains(err.Error(), "executable file not found") {
			return nil, fmt.Errorf("%w\nInstall Terraform (make does: go install github.com/hashicorp/terraform@v1.5.7) or set EOS_TERRAFORM_BINARY", err)
		}
		return nil, err
	}
	policy, err := executor.ParseRollbackPolicy(tc.Rollback)
	if err != nil {
		return nil, err
	}
	layers := []executor.Layer{tf}
	if sc := cfg.Salt; sc != nil {
		sl, err := salt.New(sc.layerConfig(log.With("layer", "salt")))
		if err != nil {
			return nil, err
		}
		layers = append(layers, sl)
	}
	if nc := cfg.Nomad; nc != nil {
		ncfg := nomad.Config{Address: nc.Address, Region: nc.Region, Namespace: nc.Namespace, Token: nc.Token, Logger: log.With("layer", "nomad")}
		if vc := cfg.Vault; vc != nil {
			ncfg.SecretsPath = vault.NomadSecretsPath(vc.Mount, vc.PathTemplate)
		}
		if nc.CACert != "" {
			ncfg.TLS = &nomad.TLSConfig{CACert: nc.CACert}
		}
		if nc.DeployTimeout != "" {
			d, err := time.ParseDuration(nc.DeployTimeout)
			if err != nil {
				return nil, fmt.Errorf("nomad deploy_timeout %q: %w", nc.DeployTimeout, err)
			}
			ncfg.DeployTimeout = d
		}
		nl, err := nomad.New(ncfg)
		if err != nil {
			return nil, err
		}
		layers = append(layers, nl)
	}
	rc := executor.RunnerConfig{Layers: layers, Rollback: policy}
	if cfg.LayerTimeout != "" {
		d, err := time.ParseDuration(cfg.LayerTimeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("layer_timeout %q is not a positive duration like \"30m\"", cfg.LayerTimeout)
		}
		rc.LayerTimeout = d
	}
	if secrets != nil {
		rc.Secrets = secrets
	}
	return executor.NewRunner(rc)
}

func mirrorInclude(tc *TerraformConfig) []string {
	if tc.Mirror == "" {
		return nil
	}
	return tc.MirrorInclude
}

func (a *app) Close() error { return a.store.Close() }

// run runs the engine with the adapters, and Vault's token renewal beside it.
func (a *app) run(ctx context.Context, as ...adapters.Adapter) error {
	if a.secrets == nil {
		return a.engine.Run(ctx, as...)
	}
	rctx, stop := context.WithCancel(ctx)
	renewed := make(chan error, 1)
	go func() { renewed <- a.secrets.Run(rctx) }()
	err := a.engine.Run(ctx, as...)
	stop()
	if rerr := <-renewed; rerr != nil {
		a.log.Error("vault token renewal", "err", rerr)
	}
	return err
}
