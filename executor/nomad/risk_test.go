package nomad

import (
	"testing"

	"github.com/eosbot/eos/executor"
)

// A group the blueprint says holds data loses it when the plan removes it (the job stopped
// or the group dropped) or replaces its allocations; an in-place update or a new group does
// not, and neither does any change to a group that holds none.
func TestMarkDataLoss(t *testing.T) {
	t.Parallel()
	plans := []groupPlan{
		{change: executor.Change{Action: executor.Delete, Address: "nc-production/db"}},
		{change: executor.Change{Action: executor.Replace, Address: "nc-production/db"}},
		{change: executor.Change{Action: executor.Update, Address: "nc-production/db"}},
		{change: executor.Change{Action: executor.Create, Address: "nc-production/db"}},
		{change: executor.Change{Action: executor.Delete, Address: "nc-production/app"}},
		{change: executor.Change{Action: executor.Replace, Address: "nc-production/app"}},
	}
	markDataLoss(plans, []string{"db"})
	want := []bool{true, true, false, false, false, false}
	for i, p := range plans {
		if p.change.DataLoss != want[i] {
			t.Errorf("%s %s: DataLoss = %v, want %v", p.change.Action, p.change.Address, p.change.DataLoss, want[i])
		}
	}
}
