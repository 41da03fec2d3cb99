package render

import (
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// A `drift` answer where everything matches names the service asked about, in each
// environment it runs in; several services are counted.
func TestDriftAllCleanNamesTheService(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	clean := func(service, env string) ServiceDrift {
		return ServiceDrift{Service: service, Env: env, Status: executor.DriftClean}
	}
	for _, tc := range []struct {
		results []ServiceDrift
		want    string
	}{
		{[]ServiceDrift{clean("jenkins", "staging")}, "Drift · Fri 27 Nov 09:00 UTC · jenkins in staging matches its declared state."},
		{[]ServiceDrift{clean("jenkins", "staging"), clean("jenkins", "production")}, "Drift · Fri 27 Nov 09:00 UTC · jenkins matches its declared state in production and staging."},
		{[]ServiceDrift{clean("jenkins", "staging"), clean("jenkins", "production"), clean("jenkins", "dev")}, "Drift · Fri 27 Nov 09:00 UTC · jenkins matches its declared state in dev, production and staging."},
		{[]ServiceDrift{clean("jenkins", "staging"), clean("grafana", "staging")}, "Drift · Fri 27 Nov 09:00 UTC · all 2 services match their declared state."},
	} {
		if got := Drift(tc.results, at, nil).Plain(); got != tc.want {
			t.Errorf("Drift(%d results) = %q, want %q", len(tc.results), got, tc.want)
		}
	}
}
