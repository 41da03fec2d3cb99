package bot

import (
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/render/rendertest"
	goldenfile "github.com/eosbot/eos/internal/golden"
)

// The engine's tests that check a rendering through the engine (a preview with its dependency
// lines, a redacted preview, a page link) share these fixtures with bot/render's tests, which
// test the renderings alone (bot/render/rendertest).
var (
	golden     = rendertest.Golden
	at         = rendertest.At
	samplePlan = rendertest.SamplePlan
)

// goldenText compares got with testdata/name, rewriting it under -update.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), []byte(got))
}

// riskPolicy asks one approval in production, and two for a plan that loses data.
func riskPolicy() Policy {
	return Policy{Envs: map[string]EnvPolicy{"production": {Approvers: []string{"bob", "dave", "group:sre"}, Approvals: 1,
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvals: 2}}}}}
}

// The engine's tests name the texts and icons they check by the short words the engine used
// before its texts moved to bot/render.
type layerState = render.LayerState

var progress = render.Progress

const (
	iconWaiting = render.IconWaiting
	iconRunning = render.IconRunning
	iconSkipped = render.IconSkipped
)
