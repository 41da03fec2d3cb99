package enginetest_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	goldenfile "github.com/eosbot/eos/internal/golden"
)

// A sensitive value in a Terraform module shows as "(sensitive)" and never reaches chat, the
// logs or the audit log: not in the preview, the full plan, the progress or the result.
func TestSensitiveValuesAreRedacted(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-api-key-never-shown"
	h := eostest.New(t, eostest.Options{CatalogDirs: []string{"testdata/sensitive"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create apikey")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	up, uid := eostest.Preview(t, h, "alice", "@eos update apikey --label two")
	after := h.Last()
	h.Say("alice", "@eos plan "+uid+" full")
	full := h.WaitText(after, "Plan "+uid)
	if !strings.Contains(full.Text, "terraform_data.client") || !strings.Contains(full.Text, "(sensitive)") {
		t.Errorf("the full plan should name the resource and mark the sensitive value:\n%s", full.Text)
	}
	// The golden files hold what people see, with the plan id, hash and expiry time
	// normalised; they are checked for the value like everything else.
	normal := strings.NewReplacer(uid, "PLANID")
	goldenText(t, "redacted_preview", expiresRe.ReplaceAllString(normal.Replace(up.Text), "expires HH:MM UTC"))
	goldenText(t, "redacted_plan_full", hashRe.ReplaceAllString(normal.Replace(full.Text), "hash HASH…"))
	h.React("bob", up.ID, "+1")
	h.WaitText(up.ID, "Run "+uid+" · done in")
	h.Idle()

	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, secret) || strings.Contains(post.Attachment, secret) {
			t.Errorf("post %d shows the sensitive value:\n%s", post.ID, post.Text)
		}
	}
	if strings.Contains(h.Log.String(), secret) {
		t.Error("the logs show the sensitive value")
	}
	entries, err := h.Store.Audit(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Text, secret) {
			t.Errorf("audit entry %d shows the sensitive value: %s", e.Seq, e.Text)
		}
	}
}

var (
	expiresRe = regexp.MustCompile(`expires \d\d:\d\d UTC`)
	hashRe    = regexp.MustCompile(`hash [0-9a-f]+…`)
)

// goldenText compares text with testdata/NAME.golden (internal/golden: rewritten with
// -update) and fails if the sensitive value is in it.
func goldenText(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, []byte(text+"\n"))
	if strings.Contains(text, "s3cr3t") {
		t.Errorf("%s holds the sensitive value", path)
	}
}
