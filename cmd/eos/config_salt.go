package main

import (
	"log/slog"

	"github.com/eosbot/eos/executor/salt"
)

// layerConfig is the Salt layer's configuration. Dry runs read /jobs unless the operator
// says dry_runs_from_jobs = false: a return event on the bus is any minion's word.
func (sc *SaltConfig) layerConfig(log *slog.Logger) salt.Config {
	return salt.Config{URL: sc.URL, Username: sc.Username, Password: sc.Password, EAuth: sc.EAuth,
		Targets: sc.Targets, DisableEvents: sc.DisableEvents,
		DryRunsFromEvents: sc.DryRunsFromJobs != nil && !*sc.DryRunsFromJobs, Logger: log}
}
