package terraform

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// A plan Terraform refuses because of what was asked (here the provider will not shrink a
// volume) is a plan that would fail: the layer returns it with the reason among its Failures,
// said once, so the preview leads with ⛔ and offers no approval. Before, Plan returned an
// error and the chat answered "planning failed" with the reason three times.
func TestAPlanTerraformRefusesIsAFailureNotAnError(t *testing.T) {
	t.Parallel()
	l, _ := newEoslabLayer(t, nil)
	ctx := testCtx(t)
	mustApply(t, l, volumeSpec(300), mustPlan(t, l, volumeSpec(300)))

	lp, err := l.Plan(ctx, volumeSpec(200))
	if err != nil {
		t.Fatalf("plan of a shrink: %v; want a plan with its failure", err)
	}
	want := "eoslab_volume.data: Volumes cannot shrink: size_gb would go from 300 to 200"
	if len(lp.Failures) != 1 || !strings.HasPrefix(lp.Failures[0], want) || strings.Count(lp.Failures[0], "cannot shrink") != 1 {
		t.Fatalf("failures = %q, want one starting %q", lp.Failures, want)
	}
	if lp.Status != executor.PlanChanges || !strings.Contains(lp.Summary, "refused") {
		t.Errorf("status %s, summary %q; want a row that says Terraform refused", lp.Status, lp.Summary)
	}
	st, err := decodeState(lp.State)
	if err != nil || len(st.Units) != 1 || st.Units[0].Apply || st.Units[0].Plan != "" {
		t.Errorf("plan state %+v (%v): a refused unit has no saved plan and nothing to apply", st, err)
	}
}

// Only errors about what was asked block a plan: one that is not tied to a resource or a place
// in the configuration (a backend or provider not answering) stays an error.
func TestPlanRefusalNeedsEveryErrorLocated(t *testing.T) {
	located := &commandError{op: "plan", msg: "m", diags: []diagnostic{{Address: "a.b", Summary: "x", Located: true}}}
	if planRefusal(located) != "m" {
		t.Error("a located plan error is not a refusal")
	}
	for name, err := range map[string]error{
		"unlocated": &commandError{op: "plan", msg: "m", diags: []diagnostic{{Summary: "Failed to load state", Located: false}}},
		"init":      &commandError{op: "init", msg: "m", diags: []diagnostic{{Summary: "x", Located: true}}},
		"locked":    &commandError{op: "plan", msg: "m", cause: ErrStateLocked, diags: []diagnostic{{Summary: "x", Located: true}}},
		"none":      &commandError{op: "plan", msg: "m"},
	} {
		if planRefusal(err) != "" {
			t.Errorf("%s: counted as a refusal", name)
		}
	}
}

// Units are planned side by side, yet the layer's plan lists them in the spec's order with
// the same digest every time.
func TestUnitsPlannedSideBySideKeepTheSpecsOrder(t *testing.T) {
	t.Parallel()
	l, _ := newEoslabLayer(t, nil)
	ctx := testCtx(t)
	mod := func(name string) map[string]string {
		return map[string]string{"main.tf": strings.ReplaceAll(volumeModule, "data-nextcloud", "data-"+name)}
	}
	s := spec(unit("authentik", mod("authentik"), map[string]any{"volume_gb": 10}),
		unit("nextcloud", mod("nextcloud"), map[string]any{"volume_gb": 20}),
		unit("onlyoffice", mod("onlyoffice"), map[string]any{"volume_gb": 30}))
	var first string
	for i := range 4 {
		lp, err := l.Plan(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		var units []string
		for _, c := range lp.Changes {
			units = append(units, c.Unit)
		}
		if got := strings.Join(units, ","); got != "authentik,nextcloud,onlyoffice" {
			t.Fatalf("changes by unit = %s, want the spec's order", got)
		}
		if i == 0 {
			first = lp.Digest
		} else if lp.Digest != first {
			t.Fatalf("plan %d's digest differs:\n%s\nwant\n%s", i, lp.Digest, first)
		}
	}
}
