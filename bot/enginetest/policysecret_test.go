package enginetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// On the Salt test master: a state writes a password from the master's own pillar (a value
// Eos never sees) into a file; the plan's input document carries the state as data (id,
// function, name, changes) with the file's diff masked where the password is, and the
// password is nowhere in the document, nor in the preview.
func TestAMasterPillarSecretNeverReachesThePolicyInputDocument(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	secret := os.Getenv("EOS_TEST_SALT_PILLAR_SECRET")
	if secret == "" {
		t.Fatal("EOS_TEST_SALT_PILLAR_SECRET is not set: start Salt again with scripts/testenv/salt.sh, which puts a secret in the master's pillar")
	}
	servedSecret(t, minion, secret)
	root := filepath.Join(data, "srv", "dbcfg")
	conf := filepath.Join(root, "db.conf")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.WriteFile(conf, []byte("port=5432\npassword=old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, CatalogDirs: []string{filepath.Join("testdata", "policysecret")}})

	id := planned(t, h, "@eos create dbcfg")
	doc := keptInput(t, h, id)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) {
		t.Fatalf("the input document holds the master pillar's secret:\n%s", raw)
	}
	for _, p := range h.Console.Posts() {
		if strings.Contains(p.Text, secret) {
			t.Errorf("a post holds the master pillar's secret:\n%s", p.Text)
		}
	}
	changes := doc["plan"].(map[string]any)["layers"].(map[string]any)["salt"].(map[string]any)["changes"].([]any)
	if len(changes) != 1 {
		t.Fatalf("the Salt changes: %v; want the file's", changes)
	}
	c := changes[0].(map[string]any)
	// The file's path holds the minion's eos_data_dir, which the blueprint does not say but
	// the minion does: its name shows whole (executor/salt/datadir.go).
	if c["minion"] != minion || c["id"] != "dbcfg-config" || c["function"] != "file.managed" || c["name"] != conf {
		t.Errorf("the file's state as data: minion %v, id %v, function %v, name %v", c["minion"], c["id"], c["function"], c["name"])
	}
	diff, _ := c["changes"].(map[string]any)["diff"].(string)
	if !strings.Contains(diff, " port=5432") || !strings.Contains(diff, "+<secret masked>") || !strings.Contains(diff, "-<secret masked>") {
		t.Errorf("the file's changes.diff = %q (detail %v); want the port's line shown and the password's lines masked", diff, c["detail"])
	}
}

// servedSecret fails the test unless the master's pillar serves secret to minion, so that the
// states render it (salt-api's /run, as the layer calls it).
func servedSecret(t *testing.T, minion, secret string) {
	t.Helper()
	body, _ := json.Marshal([]map[string]any{{"client": "local", "tgt": minion, "fun": "pillar.items",
		"username": os.Getenv("EOS_TEST_SALT_USER"), "password": os.Getenv("EOS_TEST_SALT_PASSWORD"), "eauth": os.Getenv("EOS_TEST_SALT_EAUTH")}})
	resp, err := http.Post(os.Getenv("EOS_TEST_SALT_URL")+"/run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(out), secret) {
		t.Fatalf("the master's pillar does not serve the secret to %s (HTTP %d)", minion, resp.StatusCode)
	}
}
