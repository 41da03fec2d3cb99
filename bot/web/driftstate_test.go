package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// A service whose last check found drift and that a run applied afterwards (a reconcile, an
// update) is shown as applied by that run, not as drifted, on its page, the services list and
// the overview; a check after the run is what the page shows again. Before, the page kept
// saying "drifted" until the next scheduled check.
func TestTheDriftStateFollowsASuccessfulRun(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, nil, t0, &p.Plan.Spec); err != nil {
		t.Fatal(err)
	}
	if err := f.st.RecordDrift(context.Background(), []store.DriftRecord{{Key: "production/nextcloud", At: t0.Add(-time.Hour), Status: "drifted", Summary: "Terraform: 1 change"}}); err != nil {
		t.Fatal(err)
	}
	c := f.signedIn()
	_, page := f.get(c, "/services/production/nextcloud")
	want := `<span class="status status-applied">applied</span>: run 7f3a9c21 applied the declared state ` + t0.UTC().Format("2006-01-02 15:04 UTC") +
		", after the last check found it drifted; not checked since"
	if !strings.Contains(page, want) {
		t.Errorf("the service page lacks %q:\n%s", want, page)
	}
	if _, list := f.get(c, "/services"); strings.Contains(list, "status-drifted") {
		t.Errorf("/services still shows the drift the run undid:\n%s", list)
	}
	if _, overview := f.get(c, "/"); strings.Contains(overview, "nextcloud</a> drifted at") {
		t.Errorf("the overview still lists the drift the run undid:\n%s", overview)
	}

	if err := f.st.RecordDrift(context.Background(), []store.DriftRecord{{Key: "production/nextcloud", At: t0.Add(time.Hour), Status: "drifted", Summary: "Terraform: 1 change"}}); err != nil {
		t.Fatal(err)
	}
	if _, page := f.get(c, "/services/production/nextcloud"); !strings.Contains(page, `<span class="status status-drifted">drifted</span></dd>`) {
		t.Errorf("a check after the run does not show:\n%s", page)
	}
}
