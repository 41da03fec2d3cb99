package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// On the real master, a hand edit of grafana's configuration file that puts a secret into it
// shows in the drift reply and in the reconcile's full plan as the file's diff: the lines the
// blueprint writes as they are, the secret's line masked.
func TestSaltDriftAndFullPlanShowTheFilesDiffWithTheSecretMasked(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "grafana-local")
	os.RemoveAll(root)
	t.Cleanup(func() { os.RemoveAll(root) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}})

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done")
	conf := filepath.Join(root, "grafana.ini")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	const secret = "Zr7qK2vLp9XwQ4"
	if err := os.WriteFile(conf, append(b, []byte("\nadmin_token="+secret+"\n")...), 0o640); err != nil {
		t.Fatal(err)
	}

	after := h.Last()
	h.Say("alice", "@eos drift grafana")
	reply := h.WaitText(after, "grafana (local) · Salt: 1 change", "Diff of grafana "+minion+": file.managed grafana-config")
	// The data= line and the file's name hold the minion's eos_data_dir, which the blueprint
	// does not say but the minion does: shown both (executor/salt/datadir.go).
	for _, want := range []string{" domain=grafana.local.test", " data=" + root, "-<secret masked>", "file.managed grafana-config (" + conf + ")"} {
		if !strings.Contains(reply.Text, want) {
			t.Errorf("the drift reply lacks %q:\n%s", want, reply.Text)
		}
	}

	rp, rid := eostest.Preview(t, h, "alice", "@eos reconcile grafana")
	after = h.Last()
	h.Say("alice", "@eos plan "+rid+" full")
	full := h.WaitText(after, "Plan "+rid, "Diff of grafana")
	if !strings.Contains(full.Text, "-<secret masked>") {
		t.Errorf("the full plan lacks the masked line:\n%s", full.Text)
	}
	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, secret) || strings.Contains(post.Attachment, secret) {
			t.Errorf("post %d shows the secret:\n%s", post.ID, post.Text)
		}
	}
	h.React("bob", rp.ID, "+1")
	h.WaitText(rp.ID, "Run "+rid+" · done")
}
