package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/eosbot/eos/bot"
)

// reloadOnHangup puts the approval policy of a freshly read configuration in force each time
// the process gets SIGHUP, until ctx ends: the engine then judges every waiting plan by it at
// once. A configuration that fails to load or validate, or whose policy set (policy_dirs) does
// not compile, leaves the policy and the set in force as they were, and the log says why. Only
// the policy and the set are reloaded; every other setting (policy_timezone too) needs a restart.
func reloadOnHangup(ctx context.Context, loadCfg func() (*Config, error), engine *bot.Engine, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				reloadPolicy(ctx, loadCfg, engine, log)
			}
		}
	}()
}

// reloadPolicy reads the configuration again and puts its policy in force, or keeps the one in
// force when it cannot.
func reloadPolicy(ctx context.Context, loadCfg func() (*Config, error), engine *bot.Engine, log *slog.Logger) bool {
	cfg, err := loadCfg()
	if err != nil {
		log.Error("configuration reload failed: the approval policy in force stays as it was", "err", err)
		return false
	}
	p, err := cfg.policy()
	if err != nil {
		log.Error("configuration reload failed: the approval policy in force stays as it was", "err", err)
		return false
	}
	code, _, err := cfg.policyCode(ctx)
	if err != nil {
		log.Error("configuration reload failed: the approval policy and the policy set in force stay as they were", "err", err, "sha256", engine.PolicyCodeSHA256())
		return false
	}
	log.Info("configuration reloaded on SIGHUP: the new approval policy judges every waiting plan now; other settings take effect at the next restart")
	engine.SetPolicyCode(code)
	engine.SetPolicy(ctx, p)
	return true
}
