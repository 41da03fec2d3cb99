package main

import (
	"log/slog"
	"testing"
)

// A Salt block that says nothing about dry runs reads their returns from /jobs; only
// dry_runs_from_jobs = false takes them from the event bus.
func TestSaltDryRunsReadJobsUnlessTheOperatorSaysOtherwise(t *testing.T) {
	no, yes := false, true
	for _, tc := range []struct {
		name       string
		set        *bool
		fromEvents bool
	}{{"unset", nil, false}, {"true", &yes, false}, {"false", &no, true}} {
		sc := &SaltConfig{URL: "http://127.0.0.1:8000", DryRunsFromJobs: tc.set}
		if got := sc.layerConfig(slog.New(slog.DiscardHandler)).DryRunsFromEvents; got != tc.fromEvents {
			t.Errorf("dry_runs_from_jobs %s: DryRunsFromEvents = %v, want %v", tc.name, got, tc.fromEvents)
		}
	}
}
