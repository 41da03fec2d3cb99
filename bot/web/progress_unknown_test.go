package web

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// A run's page shows a layer whose end Eos did not see as unknown, with how to check it.
func TestRunPageShowsAnUnknownOutcomeWithItsCheck(t *testing.T) {
	r := &store.Run{ID: "5e1f0a2b", State: store.RunFailed, Layers: []executor.LayerResult{{Layer: executor.Salt, Status: executor.ResultUnknown,
		Error: "outcome unknown: salt-api not answering for 2m0s", Check: "salt-run jobs.lookup_jid J"}}}
	row := progressOf(r, nil).Rows[0]
	if row.Status != "unknown" || !strings.HasSuffix(row.Message, "· check with salt-run jobs.lookup_jid J") {
		t.Errorf("row = %+v, want status unknown and the check", row)
	}
}
