package main

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/terraform"
)

// app is everything a command needs, wired from the configuration.
type app struct {
	cfg    *Config
	log    *slog.Logger
	cat    *catalog.Catalog
	store  *store.Store
	runner *executor.Runner
	engine *bot.Engine
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

// build opens the store, loads and validates the catalog, and wires the layers and the
// engine. Every wiring mistake surfaces here, before any adapter connects.
func build(cfg *Config, log *slog.Logger) (*app, error) {
	cat, err := loadCatalog(cfg)
	if err != nil {
		return nil, err
	}
	runner, err := newRunner(cfg, log)
	if err != nil {
		return nil, err
	}
	policy, err := cfg.policy()
	if err != nil {
		return nil, err
	}
	digests, err := cfg.digests()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(filepath.Join(cfg.DataDir, "eos.db"), 2*time.Second)
	if err != nil {
		return nil, err
	}
	engine, err := bot.New(bot.Config{
		Catalog: cat, Runner: runner, Store: st, Policy: policy,
		DefaultEnv: cfg.DefaultEnv, BotName: cfg.BotName, Logger: log, Variants: cfg.Terraform.Variants, Digests: digests,
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	return &app{cfg: cfg, log: log, cat: cat, store: st, runner: runner, engine: engine}, nil
}

func newRunner(cfg *Config, log *slog.Logger) (*executor.Runner, error) {
	tc := cfg.Terraform
	var timeout time.Duration
	if tc.Timeout != "" {
		d, err := time.ParseDuration(tc.Timeout)
		if err != nil {
			return nil, fmt.Errorf("terraform timeout %q: %w", tc.Timeout, err)
		}
		timeout = d
	}
	tf, err := terraform.New(terraform.Config{
		Binary:         tc.Binary,
		WorkDir:        filepath.Join(cfg.DataDir, "terraform"),
		CLIConfigFile:  filepath.Join(cfg.DataDir, "terraform.rc"),
		PluginCacheDir: filepath.Join(cacheDir(), "terraform-plugins"),
		Mirror:         tc.Mirror,
		MirrorInclude:  mirrorInclude(tc),
		Env:            map[string]string{"EOSLAB_ROOT": tc.CloudDir},
		Timeout:        timeout,
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
	return executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{tf}, Rollback: policy})
}

func mirrorInclude(tc *TerraformConfig) []string {
	if tc.Mirror == "" {
		return nil
	}
	return tc.MirrorInclude
}

func (a *app) Close() error { return a.store.Close() }
