package terraform

import (
	"fmt"
	"slices"
	"strings"

	"github.com/eosbot/eos/executor"
)

// maxSummaryNames is how many resources a one-line summary names before "and N more".
const maxSummaryNames = 3

// counts is "+add ~change −destroy", as Terraform counts (a replacement adds and destroys).
func counts(changes []executor.Change) string {
	add, change, destroy := executor.LayerPlan{Changes: changes}.Counts()
	return fmt.Sprintf("+%d ~%d −%d", add, change, destroy)
}

// planSummary is the preview line: "+3 ~0 −0: terraform_data.server, terraform_data.volume,
// terraform_data.dns", or with replacements counted apart and named first, "+0 ~1 −0 ±1
// (1 replaced): eoslab_server.main, eoslab_dns_record.main". Deletions and replacements come
// before creations and updates. With more than one unit, each name carries its unit.
func planSummary(changes []executor.Change, multiUnit bool) string {
	if len(changes) == 0 {
		return "+0 ~0 −0: outputs only"
	}
	t := executor.LayerPlan{Changes: changes}.Tally()
	s := t.String()
	if t.Replace > 0 {
		s += fmt.Sprintf(" (%d replaced)", t.Replace)
	}
	ordered := slices.Clone(changes)
	slices.SortStableFunc(ordered, func(a, b executor.Change) int { return a.RiskRank() - b.RiskRank() })
	return s + ": " + names(ordered, multiUnit)
}

// adoptSummary is an adopt's preview line: the state takes in what changed outside
// Terraform, and nothing real changes.
func adoptSummary(changes []executor.Change, multiUnit bool) string {
	if len(changes) == 0 {
		return "the state takes in outputs only; nothing changes in the cloud"
	}
	return "the state takes in " + counts(changes) + ": " + names(changes, multiUnit) + "; nothing changes in the cloud"
}

// names lists the first few changed resources, then how many more there are.
func names(changes []executor.Change, multiUnit bool) string {
	var parts []string
	for i, c := range changes {
		if i == maxSummaryNames {
			parts = append(parts, fmt.Sprintf("and %d more", len(changes)-maxSummaryNames))
			break
		}
		if multiUnit {
			parts = append(parts, c.Unit+" "+c.Address)
		} else {
			parts = append(parts, c.Address)
		}
	}
	return strings.Join(parts, ", ")
}

// resultSummary is the result line after a successful apply: "+3" when everything was
// created, "+1 ~1 −0" otherwise.
func resultSummary(applied []executor.Change) string {
	if len(applied) == 0 {
		return "outputs updated"
	}
	add, change, destroy := executor.LayerPlan{Changes: applied}.Counts()
	if change == 0 && destroy == 0 {
		return fmt.Sprintf("+%d", add)
	}
	return fmt.Sprintf("+%d ~%d −%d", add, change, destroy)
}

// failedSummary says what was applied before a failure, so the reader knows what exists.
func failedSummary(applied []executor.Change, multiUnit bool) string {
	if len(applied) == 0 {
		return "nothing applied"
	}
	return counts(applied) + " applied before the failure: " + names(applied, multiUnit)
}
