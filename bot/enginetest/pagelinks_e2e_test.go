package enginetest_test

import (
	"github.com/eosbot/eos/bot/webapi"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// Through the whole engine: with a URL the preview links to its plan's page and the run's
// post to its run's page; without one neither mentions the page.
func TestPreviewAndRunPageLinks(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"https://eos.example.org", ""} {
		h := eostest.New(t, eostest.Options{Web: webapi.WebConfig{URL: url}})
		p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
		h.React("bob", p.ID, "+1")
		done := h.WaitText(p.ID, "Run "+id+" · done in")
		planLink := "Full plan and live progress: https://eos.example.org/plans/" + id
		runLink := "Run details: https://eos.example.org/runs/" + id
		if url == "" {
			for _, text := range []string{p.Text, done.Text} {
				if strings.Contains(text, "example.org") || strings.Contains(text, "Full plan and live progress") {
					t.Errorf("without a URL a post links to the page:\n%s", text)
				}
			}
			continue
		}
		if !strings.Contains(p.Text, planLink) {
			t.Errorf("the preview does not say %q:\n%s", planLink, p.Text)
		}
		if !strings.Contains(done.Text, runLink) {
			t.Errorf("the run's post does not say %q:\n%s", runLink, done.Text)
		}
	}
}
