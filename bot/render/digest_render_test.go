package render

import (
	"bytes"
	"encoding/json"
	goldenfile "github.com/eosbot/eos/internal/golden"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// digestFixture is a digest's results: one service drifted in two resources, one whose check
// failed with a multi-line reason, one clean again.
func digestFixture() []ServiceDrift {
	return []ServiceDrift{
		{Service: "grafana", Env: "staging", Status: executor.DriftDrifted, Layers: []executor.LayerDrift{
			{Layer: executor.Salt, Status: executor.DriftSkipped, Reason: "not configured"},
			{Layer: executor.Terraform, Status: executor.DriftDrifted, Changes: []executor.Change{
				{Action: executor.Update, Address: "eoslab_server.main", Detail: `size "small" → "xlarge", changed outside Terraform`},
				{Action: executor.Create, Address: "eoslab_dns_record.main", Detail: "declared but missing"},
			}},
		}},
		{Service: "jenkins", Env: "production", Status: executor.DriftUnknown, Layers: []executor.LayerDrift{
			{Layer: executor.Terraform, Status: executor.DriftUnknown, Reason: "terraform plan in production/jenkins: exit status 1\n\nError: Failed to load state: unsupported checksum\n\n  on terraform.tfstate line 1"},
		}},
		{Service: "nextcloud", Env: "production", Status: executor.DriftClean},
	}
}

// viewWith is a digest's view of the previous digest: before is each service's status then
// (drifted as it is now), drifted since two days before at.
func viewWith(results []ServiceDrift, before map[string]string) DigestView {
	v := DigestView{Before: map[string]store.DriftRecord{}, Since: map[string]time.Time{}, Snoozes: map[string]store.Snooze{}}
	for _, r := range results {
		key := r.Env + "/" + r.Service
		if st, ok := before[key]; ok {
			v.Before[key] = store.DriftRecord{Key: key, Status: st, Fingerprint: Fingerprint(r)}
			if st != "clean" && r.Status != executor.DriftClean {
				v.Since[key] = at.Add(-50 * time.Hour)
			}
		}
	}
	return v
}

// snoozedFixture is a service drifted since before the last digest, snoozed by bob.
func snoozedFixture(v DigestView) ServiceDrift {
	r := ServiceDrift{Service: "authentik", Env: "production", Status: executor.DriftDrifted, Layers: []executor.LayerDrift{
		{Layer: executor.Nomad, Status: executor.DriftDrifted, Changes: []executor.Change{
			{Action: executor.Update, Address: "authentik--production/server", Detail: "count 3 → 1"}}},
	}}
	key := "production/authentik"
	v.Before[key] = store.DriftRecord{Key: key, Status: "drifted", Fingerprint: Fingerprint(r)}
	v.Since[key] = at.Add(-6 * 24 * time.Hour)
	v.Snoozes[key] = store.Snooze{Key: key, User: "bob", At: at.Add(-time.Hour), Until: at.Add(7 * 24 * time.Hour), Fingerprint: Fingerprint(r)}
	return r
}

// The digest's headline (with a new, a known, a snoozed and a resolved service), each
// service's reply with the three triage reactions, and the answers to a reaction, as every
// platform shows them.
func TestDigestThreadGolden(t *testing.T) {
	results := digestFixture()
	v := viewWith(results, map[string]string{"production/nextcloud": "drifted", "staging/grafana": "drifted"})
	headline := append([]ServiceDrift{snoozedFixture(v)}, results...)
	docs := []namedDoc{
		{"headline", Digest(headline, v, at, at, false)},
		{"headline_single", Digest([]ServiceDrift{results[0], results[2]}, DigestView{}, at, at, false)},
		{"reply_drifted", ServiceDriftDoc(results[0])},
		{"reply_unknown", ServiceDriftDoc(results[1])},
		{"wrench_on_headline", Reply(SeveralDrifted([]string{"staging/grafana", "production/jenkins"}))},
		{"wrench_pending", Reply(AlreadyAsked("grafana", "staging", "reconcile", &store.Claim{User: "alice", At: at, PlanID: "7f3a9c21"}))},
	}
	goldenPerPlatform(t, "digest_thread", docs)
}

func slackJSON(t *testing.T) func(adapters.Doc) string {
	return func(d adapters.Doc) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(slack.Render(d)); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
}

// goldenText compares got with testdata/name, rewriting it under -update.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), []byte(got))
}

// The headline's closing line says where a 🔧 works: on the headline itself only when it
// lists a single service.
func TestDigestFooter(t *testing.T) {
	results := digestFixture()
	for _, tc := range []struct {
		name    string
		results []ServiceDrift
		want    string
	}{
		{"one service", []ServiceDrift{results[0], results[2]}, "🔕 to snooze 7 days, on this post · or @eos reconcile grafana in staging"},
		{"one unknown", results[1:], "🔕 to snooze 7 days, on this post · or @eos reconcile jenkins in production"},
		{"several", results, "🔕 to snooze 7 days, on a service's reply in the thread · or @eos reconcile SERVICE in ENV"},
		{"none", results[2:], ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Digest(tc.results, DigestView{}, at, at, false).Plain()
			if tc.want == "" {
				if strings.Contains(got, "🔧") {
					t.Errorf("a quiet digest asks for a 🔧:\n%s", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("digest lacks %q:\n%s", tc.want, got)
			}
		})
	}
}

// A long failure reason is cut in the reply, saying how much was left out.
func TestServiceDriftDocCutsLongReasons(t *testing.T) {
	reason := strings.Repeat("line\n", 40) + "last"
	doc := ServiceDriftDoc(ServiceDrift{Service: "jenkins", Env: "production", Status: executor.DriftUnknown,
		Layers: []executor.LayerDrift{{Layer: executor.Terraform, Status: executor.DriftUnknown, Reason: reason}}})
	got := doc.Plain()
	if !strings.Contains(got, "… 29 more lines") || strings.Contains(got, "last") {
		t.Errorf("reason not cut to %d lines:\n%s", reasonLines, got)
	}
}

// goldenPerPlatform renders docs through each platform's real renderer and compares the result
// with testdata/BASE.{console,mattermost,discord}.golden and BASE.slack.golden.json.
func goldenPerPlatform(t *testing.T, base string, docs []namedDoc) {
	t.Helper()
	for _, p := range []struct {
		name, file string
		render     func(adapters.Doc) string
	}{
		{"console", base + ".console.golden", func(d adapters.Doc) string { return d.Plain() }},
		{"mattermost", base + ".mattermost.golden", mattermost.Render},
		{"discord", base + ".discord.golden", discord.Render},
		{"slack", base + ".slack.golden.json", slackJSON(t)},
	} {
		t.Run(p.name, func(t *testing.T) {
			var b strings.Builder
			for _, d := range docs {
				b.WriteString("=== " + d.name + "\n" + strings.TrimRight(p.render(d.doc), "\n") + "\n")
			}
			goldenText(t, p.file, b.String())
		})
	}
}

// The digest's headline says the scale before the news, on one line: how many of the services
// it checked drifted (as a `drift` answer counts them: unknown ones apart), then what is new.
func TestDigestHeadlineSaysTheScale(t *testing.T) {
	results := digestFixture()
	v := viewWith(results, map[string]string{"production/nextcloud": "drifted", "staging/grafana": "drifted"})
	all := append([]ServiceDrift{snoozedFixture(v)}, results...)
	for _, c := range []struct {
		name    string
		results []ServiceDrift
		view    DigestView
		want    string
	}{
		{"news", all, v, "Drift · Mon 23 Nov 14:02 UTC · 2 of 4 services drifted · 1 new since the last digest · 1 resolved · " +
			"2 still drifted, the oldest for 6 days (1 snoozed) · 1 unknown (not counted as clean)"},
		{"one", []ServiceDrift{results[0], results[2]}, DigestView{}, "Drift · Mon 23 Nov 14:02 UTC · 1 of 2 services drifted · 1 new since the last digest · 0 resolved"},
	} {
		head := strings.SplitN(Digest(c.results, c.view, at, at, false).Plain(), "\n", 2)[0]
		if head != c.want {
			t.Errorf("%s: the headline is\n%s\nwant\n%s", c.name, head, c.want)
		}
	}
}
