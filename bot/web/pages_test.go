package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// Alice reads #infra, not #secret: nothing of the plan asked in #secret reaches her, on any
// page, and its pages look like missing ones.
func TestASessionSeesOnlyPlansOfItsChannels(t *testing.T) {
	f := newFixture(t)
	f.addPlan("aaaa1111", "infra", store.PlanPending)
	f.addPlan("bbbb2222", "secret", store.PlanPending)
	f.startRun(f.addPlan("cccc3333", "secret", store.PlanApproved))
	if err := f.st.Append(context.Background(), store.Entry{At: t0, Kind: "refusal", User: "mallory", Text: "refused hunter2 in #secret"}); err != nil {
		t.Fatal(err)
	}
	c := f.signedIn()
	for _, path := range []string{"/", "/locks", "/services", "/audit"} {
		code, body := f.get(c, path)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
		for _, hidden := range []string{"bbbb2222", "cccc3333", "production/nextcloud", "hunter2"} {
			if strings.Contains(body, hidden) {
				t.Errorf("GET %s shows %q, which alice may not see", path, hidden)
			}
		}
	}
	if _, body := f.get(c, "/"); !strings.Contains(body, `href="/plans/aaaa1111"`) {
		t.Errorf("the overview does not list the plan alice may see")
	}
	for _, path := range []string{"/plans/bbbb2222", "/runs/cccc3333", "/runs/cccc3333/events", "/plans/nothing"} {
		if code, body := f.get(c, path); code != http.StatusNotFound || strings.Contains(body, "nextcloud") {
			t.Errorf("GET %s: %d, want 404 showing nothing of it", path, code)
		}
	}
	f.src.mu.Lock()
	f.src.see["mattermost/secret"] = true
	f.src.mu.Unlock()
	if code, body := f.get(c, "/plans/bbbb2222"); code != http.StatusOK || !strings.Contains(body, "bbbb2222") {
		t.Errorf("once alice may read #secret, its plan is %d", code)
	}
}

var attrCell = regexp.MustCompile(`<td>(size &#34;100G&#34; → &#34;200G&#34;|admin_password \(sensitive\)|label &#34;data&#34; → &#34;data-nc&#34;)</td>`)

func TestThePlanPageShowsEveryChange(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", store.PlanPending)
	code, body := f.get(f.signedIn(), "/plans/7f3a9c21")
	if code != http.StatusOK {
		t.Fatalf("GET /plans/7f3a9c21: %d\n%s", code, body)
	}
	if n := len(attrCell.FindAllString(body, -1)); n != 3 {
		t.Errorf("the replaced volume's 3 attributes have %d rows of their own, want 3:\n%s", n, body)
	}
	for _, want := range []string{
		"terraform_data.server", "size small, region eu", "job nextcloud", "groups app ×1", // every change
		"cannot update in place", "forced by size", "loses data", "(100G)", // why, and what it loses
		"node1: no changes", // a layer without changes says so
		"4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e", // the full hash
		"0 of 1", "not started", "this page cannot",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the plan page lacks %q", want)
		}
	}
	if strings.Contains(body, "<form method=\"post\" action=\"/approve") || strings.Contains(body, "Approve</button>") {
		t.Error("the plan page offers to approve")
	}
}

// A plan a layer says would fail shows why on its page, one line per reason, is not listed
// among the pending plans, and offers nothing to approve.
func TestABlockedPlanShowsWhyItCannotBeApproved(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", store.PlanBlocked)
	reason := "eos-minion: pkg.installed xfsprogs: No package xfsprogs available"
	if _, err := f.st.UpdatePlan(context.Background(), "7f3a9c21", func(p *store.Plan) error {
		p.Plan.Layers[0].Failures = []string{reason}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c := f.signedIn()
	_, body := f.get(c, "/plans/7f3a9c21")
	for _, want := range []string{"⛔ This plan would fail, so it cannot be approved:", "<li>Salt: " + reason + "</li>", `id="plan-state">blocked<`} {
		if !strings.Contains(body, want) {
			t.Errorf("the blocked plan's page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "this page cannot") {
		t.Error("the blocked plan's page speaks of approving it")
	}
	if _, overview := f.get(c, "/"); strings.Contains(overview, "7f3a9c21") {
		t.Errorf("the overview lists the blocked plan as pending:\n%s", overview)
	}
}

func TestTheRunPageShowsEachLayer(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	if _, err := f.st.UpdateRun(context.Background(), p.ID, func(r *store.Run) error {
		r.Layers = []executor.LayerResult{{Layer: executor.Salt, Status: executor.ResultOK, Summary: "3 states", Done: 3, Total: 3}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	_, body := f.get(f.signedIn(), "/runs/7f3a9c21")
	for _, want := range []string{`<progress value="3" max="3" aria-label="Salt progress">`, `data-layer="terraform"`, `data-layer="nomad"`, `data-events="/runs/7f3a9c21/events"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the run page lacks %q:\n%s", want, body)
		}
	}
}

func TestAServiceShowsItsValuesAndDriftChart(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, nil, t0, &p.Plan.Spec); err != nil {
		t.Fatal(err)
	}
	var recs []store.DriftRecord
	for i, status := range []string{"clean", "drifted", "clean", "unknown"} {
		recs = append(recs, store.DriftRecord{Key: "production/nextcloud", At: t0.Add(-time.Duration(i+1) * 24 * time.Hour), Status: status, Summary: "Terraform: 1 change"})
	}
	recs = append(recs, store.DriftRecord{Key: "production/nextcloud", At: t0.Add(-40 * 24 * time.Hour), Status: "drifted"})
	if err := f.st.RecordDrift(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
	c := f.signedIn()
	if _, body := f.get(c, "/services"); !strings.Contains(body, "domain=cloud.example.org") || !strings.Contains(body, `href="/services/production/nextcloud"`) {
		t.Errorf("/services lacks nextcloud's declared values:\n%s", body)
	}
	code, body := f.get(c, "/services/production/nextcloud")
	if code != http.StatusOK {
		t.Fatalf("service page: %d", code)
	}
	if n := strings.Count(body, `<rect class="bar-`); n != 4 {
		t.Errorf("the chart has %d bars, want the 4 checks of the last 30 days", n)
	}
	if !strings.Contains(body, "4 checks in the last 30 days: 1 drifted, 2 clean, 1 unknown.") || !strings.Contains(body, `role="img"`) {
		t.Errorf("the chart lacks its text alternative:\n%s", body)
	}
}

func TestTheAuditFilter(t *testing.T) {
	f := newFixture(t)
	f.addPlan("aaaa1111", "infra", store.PlanPending)
	f.addPlan("bbbb2222", "infra", store.PlanPending)
	if err := f.st.Append(context.Background(), store.Entry{At: t0, Kind: "approval", User: "carol", PlanID: "bbbb2222", Service: "grafana", Env: "staging", Text: "approved"}); err != nil {
		t.Fatal(err)
	}
	c := f.signedIn()
	_, body := f.get(c, "/audit?kind=approval&service=grafana")
	if !strings.Contains(body, "@carol") || strings.Contains(body, "create nextcloud (plan") {
		t.Errorf("kind=approval&service=grafana:\n%s", body)
	}
	_, body = f.get(c, "/audit?q=aaaa1111")
	if !strings.Contains(body, "create nextcloud (plan aaaa1111)") || strings.Contains(body, "plan bbbb2222)") {
		t.Errorf("q=aaaa1111:\n%s", body)
	}
	for _, label := range []string{`<label for="q">`, `<label for="kind">`, `<label for="service">`, `<label for="env">`} {
		if !strings.Contains(body, label) {
			t.Errorf("the filter lacks %s", label)
		}
	}
}

// A Salt change of a file's content shows its diff, as the layer masked it, whole: the status
// page has no message limit.
func TestThePlanPageShowsAFilesMaskedDiff(t *testing.T) {
	f := newFixture(t)
	f.addPlan("5a1d1ff0", "infra", store.PlanPending)
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("+line=%d", i))
	}
	diff := "@@ -1,2 +1,41 @@\n-<secret masked>\n" + strings.Join(lines, "\n")
	if _, err := f.st.UpdatePlan(context.Background(), "5a1d1ff0", func(p *store.Plan) error {
		p.Plan.Layers[0] = executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanChanges, Summary: "+0 ~1 −0 on node1: nextcloud-config",
			Changes: []executor.Change{{Unit: "nextcloud", Action: executor.Update, Address: "node1: file.managed nextcloud-config", Detail: "content +40 −1 lines", Diff: diff}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	code, body := f.get(f.signedIn(), "/plans/5a1d1ff0")
	if code != http.StatusOK {
		t.Fatalf("GET /plans/5a1d1ff0: %d\n%s", code, body)
	}
	body = html.UnescapeString(body)
	want := `<pre class="diff" aria-label="diff of node1: file.managed nextcloud-config">@@ -1,2 +1,41 @@` + "\n-<secret masked>\n+line=0\n"
	if !strings.Contains(body, want) || !strings.Contains(body, "+line=39</pre>") {
		t.Errorf("the plan page lacks the whole diff:\n%s", body)
	}
}

// The plan page lists the policy set's decisions on the plan as the audit log recorded them:
// each with its rule, file:line and the set's SHA-256.
func TestThePlanPageListsThePolicyDecisions(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", store.PlanPending)
	text := "deny: grafana is retired here (eos.retired.deny, retired.rego:3) · policy set sha256:ab12"
	if err := f.st.Append(context.Background(), store.Entry{Kind: "policy", PlanID: "7f3a9c21", Text: text, At: time.Date(2026, 11, 26, 14, 5, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	_, body := f.get(f.signedIn(), "/plans/7f3a9c21")
	if !strings.Contains(body, "Policy decisions") || !strings.Contains(body, text) {
		t.Errorf("the plan page lacks the policy decision:\n%s", body)
	}
	f.addPlan("bbbb2222", "infra", store.PlanPending)
	if _, body := f.get(f.signedIn(), "/plans/bbbb2222"); strings.Contains(body, "Policy decisions") {
		t.Error("a plan no policy judged shows a policy section")
	}
}
