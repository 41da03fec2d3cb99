package enginetest_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// `cancel ID` of a running plan stops it at the next safe point: the layer applying finishes,
// no later layer starts, nothing is rolled back, and the result says who stopped it where.
// Only the requester or an approver may; both the refusal and the stop are in the audit log.
// Before, cancel answered that the plan was not pending, and the run went on.
func TestCancelStopsARunningPlanBetweenLayers(t *testing.T) {
	applying := newGate()
	salt := &slowSalt{apply: map[string]*gate{"grafana": applying}}
	bobApproves := bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt},
		Policy: bot.Policy{Default: bobApproves, Envs: map[string]bot.EnvPolicy{"local": bobApproves}}})
	t.Cleanup(applying.open)

	h.Say("alice", "@eos create grafana")
	preview := h.WaitText(0, "create grafana in local", "React ✅ to approve")
	id := eostest.PlanIDRe.FindStringSubmatch(preview.Text)[1]
	h.React("bob", preview.ID, "+1")
	applying.arrived(t, "applying Salt")

	// Taking back the ✅ stops nothing now, and bob is told what does.
	h.Unreact("bob", preview.ID, "+1")
	h.WaitText(preview.ID, "@bob, plan "+id+" is running (run "+id, "taking back your ✅ does not stop it. To stop it at the next safe point: @eos cancel "+id)
	h.Say("carol", "@eos cancel "+id)
	if a := answerTo(t, h, "@eos cancel "+id, promptly); !strings.Contains(a.Text, "@carol can't stop run "+id) {
		t.Errorf("carol, neither requester nor approver, was answered %q", a.Text)
	}
	h.Say("alice", "cancel "+id)
	if a := answerTo(t, h, "cancel "+id, promptly); !strings.Contains(a.Text, "Stopping run "+id+" at the next safe point") {
		t.Errorf("alice's cancel of her running plan was answered %q", a.Text)
	}
	applying.open()
	h.WaitText(preview.ID, "Run "+id+" stopped by @alice after Salt; Terraform not started; nothing rolled back.")
	waitPreview(t, h, preview, "approved by @bob ✅ · run "+id+" stopped")
	h.Idle()

	r, err := h.Store.Run(context.Background(), id)
	if err != nil || r.State != store.RunStopped {
		t.Fatalf("run = %+v, %v; want stopped", r, err)
	}
	if objects, _ := filepath.Glob(filepath.Join(h.Cloud(), "*", "*.json")); len(objects) > 0 {
		t.Errorf("Terraform ran after the stop: the cloud holds %v", objects)
	}
	if _, err := h.Store.Declared(context.Background(), "local/grafana"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a stopped run recorded grafana's declared state (err %v)", err)
	}
	if n := salt.rolledBack(); n != 0 {
		t.Errorf("the stop rolled Salt back %d times", n)
	}
	kinds := map[string]string{}
	entries, err := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id })
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		kinds[e.Kind] += e.User + " "
	}
	if kinds["stop"] != "alice " || !strings.Contains(kinds["refusal"], "carol") {
		t.Errorf("audit log of plan %s by kind: %v; want alice's stop and carol's refusal", id, kinds)
	}

	// The lock is released: grafana can be asked for again.
	h.Say("alice", "@eos create grafana in local")
	if a := answerTo(t, h, "@eos create grafana in local", eostest.Timeout); !strings.Contains(a.Text, "React ✅ to approve") {
		t.Errorf("asking again after the stop was answered %q", a.Text)
	}
}
