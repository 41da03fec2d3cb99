package nomad

import (
	"slices"

	"github.com/eosbot/eos/executor"
)

// markDataLoss marks the changes that lose data: removing a task group the blueprint says
// holds data (holds names groups: NomadPart.HoldsData), whether the job is stopped or the
// group dropped, or replacing its allocations (a destructive update). Nomad's plan does not
// say whether the data outlives an allocation (a host volume, a bind mount, a sticky disk),
// so a group the blueprint marks is taken at its word.
func markDataLoss(plans []groupPlan, holds []string) {
	for i := range plans {
		c := &plans[i].change
		if (c.Action == executor.Delete || c.Action == executor.Replace) && slices.Contains(holds, groupOf(c.Address)) {
			c.DataLoss = true
		}
	}
}
