package bot

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/bot/webapi"
	"github.com/eosbot/eos/executor"
)

func linkEngine(url string) *Engine { return &Engine{cfg: Config{Web: webapi.WebConfig{URL: url}}} }

// The preview ends with its plan's page when the page has a URL, and is unchanged without.
func TestPreviewLinksToPlanPage(t *testing.T) {
	p := samplePlan()
	ep := EnvPolicy{Approvers: []string{"bob"}, Approvals: 1}
	plain := previewDoc(p, judgedByRule(p, ep), "").Plain()

	got := linkEngine("https://eos.example.org/").planLinked(previewDoc(p, judgedByRule(p, ep), ""), p.ID).Plain()
	want := "Full plan and live progress: https://eos.example.org/plans/7f3a9c21"
	if !strings.HasSuffix(got, want) {
		t.Errorf("the preview does not end with %q:\n%s", want, got)
	}
	if got := linkEngine("").planLinked(previewDoc(p, judgedByRule(p, ep), ""), p.ID).Plain(); got != plain {
		t.Errorf("without a URL the preview changed:\n%s\nwant\n%s", got, plain)
	}
}

// The run's progress post (and the result it becomes) links to the run's page when the page
// has a URL, and is unchanged without.
func TestProgressLinksToRunPage(t *testing.T) {
	run := &store.Run{ID: "7f3a9c21", Approvers: []string{"bob"}}
	plan := samplePlan().Plan
	want := "Live progress: https://eos.example.org/runs/7f3a9c21"

	got := newTracker(linkEngine("https://eos.example.org"), nil, run, plan).doc().Plain()
	if !strings.HasSuffix(got, want) {
		t.Errorf("the progress post does not end with %q:\n%s", want, got)
	}
	bare := newTracker(linkEngine(""), nil, run, plan).doc().Plain()
	if bare != render.ProgressDoc(run.ID, run.Approvers, []layerState{
		{Name: executor.Salt, Icon: iconSkipped, Text: "not configured"},
		{Name: executor.Terraform, Icon: iconWaiting},
		{Name: executor.Nomad, Icon: iconSkipped, Text: "nothing to do"},
	}).Plain() || strings.Contains(bare, "example.org") {
		t.Errorf("without a URL the progress post changed:\n%s", bare)
	}
}
