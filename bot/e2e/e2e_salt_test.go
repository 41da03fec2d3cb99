package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// A service's local Salt state through the bot on a real master: planned with its files in the
// preview, applied state by state; a hand edit of its configuration file is drift, in `drift`
// and in the digest, and reconcile puts the file back.
func TestSaltCreateApplyDriftOnARealMaster(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "grafana-local")
	os.RemoveAll(root)
	t.Cleanup(func() { os.RemoveAll(root) })
	clock := eostest.NewClock(time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC)) // a Monday
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, Clock: clock, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *"},
	}})

	conf := filepath.Join(root, "grafana.ini")
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	if want := "Salt      | +2 ~0 −0 on " + minion + ": grafana-data-volume"; !strings.Contains(p.Text, want) {
		t.Errorf("preview lacks %q:\n%s", want, p.Text)
	}
	h.React("bob", p.ID, "+1")
	done := h.WaitText(p.ID, "Run "+id+" · done")
	if want := "Salt ✅ 2 states on " + minion + ", 2 changed"; !strings.Contains(done.Text, want) {
		t.Errorf("run lacks %q:\n%s", want, done.Text)
	}
	b, err := os.ReadFile(conf)
	if err != nil || !strings.Contains(string(b), "domain=grafana.local.test") {
		t.Fatalf("%s = %q, %v; want the configuration the local state writes", conf, b, err)
	}

	after := h.Last()
	h.Say("alice", "@eos drift grafana")
	if clean := h.WaitText(after, "Drift"); !strings.Contains(clean.Text, "matches its declared state") {
		t.Errorf("drift right after the run:\n%s", clean.Text)
	}
	if err := os.WriteFile(conf, []byte("domain=edited.by.hand\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	// A moment after the first digest: a check at the very instant of the digest's own would
	// share its record (one per service and time).
	clock.Advance(time.Second)
	after = h.Last()
	h.Say("alice", "@eos drift grafana")
	drifted := h.WaitText(after, "Drift")
	// The file's path holds the minion's eos_data_dir, which the blueprint does not say but the
	// minion does: the state's name shows it whole (executor/salt/datadir.go).
	if want := "Salt: " + minion + ": file.managed grafana-config (" + conf + ")"; !strings.Contains(drifted.Text, want) {
		t.Errorf("drift after a hand edit lacks %q:\n%s", want, drifted.Text)
	}

	clock.Advance(90 * time.Second)
	after = h.Last()
	if n := h.Engine.RunDueDigests(context.Background()); n != 1 {
		t.Fatalf("%d digests ran at 08:00:30, want 1", n)
	}
	digest := h.WaitText(after, "Drift · Mon 23 Nov 08:00 UTC · ", "services drifted · 1 new since the last digest")
	if !strings.Contains(digest.Text, "grafana (local) · Salt: 1 change") {
		t.Errorf("digest:\n%s", digest.Text)
	}

	rp, rid := eostest.Preview(t, h, "alice", "@eos reconcile grafana")
	h.React("bob", rp.ID, "+1")
	h.WaitText(rp.ID, "Run "+rid+" · done")
	if b, _ := os.ReadFile(conf); !strings.Contains(string(b), "domain=grafana.local.test") {
		t.Errorf("after reconcile %s = %q, want the declared configuration back", conf, b)
	}
}
