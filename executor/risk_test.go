package executor

import "testing"

func TestTallyCountsReplacementsApart(t *testing.T) {
	lp := LayerPlan{Changes: []Change{{Action: Create}, {Action: Create}, {Action: Update}, {Action: Replace}, {Action: NoOp}}}
	if got := lp.Tally().String(); got != "+2 ~1 −0 ±1" {
		t.Errorf("tally = %q, want +2 ~1 −0 ±1", got)
	}
	if got := (LayerPlan{Changes: []Change{{Action: Delete}}}).Tally().String(); got != "+0 ~0 −1" {
		t.Errorf("tally without replacements = %q, want +0 ~0 −1", got)
	}
	p := Plan{Layers: []LayerPlan{lp}}
	if p.LosesData() {
		t.Error("a plan without data-loss changes loses data")
	}
	p.Layers = append(p.Layers, LayerPlan{Changes: []Change{{Action: Delete, DataLoss: true}}})
	if !p.LosesData() {
		t.Error("a plan deleting a volume that holds data does not lose data")
	}
}
