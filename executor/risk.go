package executor

import "fmt"

// Tally counts a layer's changes by action, with replacements apart from creations and
// deletions: what a reviewer reads first.
type Tally struct {
	Create, Update, Delete, Replace int
}

// Tally counts the layer's changes.
func (p LayerPlan) Tally() Tally {
	var t Tally
	for _, c := range p.Changes {
		switch c.Action {
		case Create:
			t.Create++
		case Update:
			t.Update++
		case Delete:
			t.Delete++
		case Replace:
			t.Replace++
		}
	}
	return t
}

// String is "+2 ~1 −0", followed by " ±1" when something is replaced.
func (t Tally) String() string {
	s := fmt.Sprintf("+%d ~%d −%d", t.Create, t.Update, t.Delete)
	if t.Replace > 0 {
		s += fmt.Sprintf(" ±%d", t.Replace)
	}
	return s
}

// Risky reports whether c can hurt: it deletes, replaces, loses data, or disrupts what runs
// (Disrupts).
func (c Change) Risky() bool {
	return c.DataLoss || c.Action == Delete || c.Action == Replace || c.Disrupts()
}

// Disrupts reports whether c changes in place something that runs, in a way that interrupts
// it: an update with Forces (a Salt state that would restart a service or remount a volume).
func (c Change) Disrupts() bool {
	return c.Action == Update && c.Forces != ""
}

// RiskRank orders changes for a reviewer: data loss first, then deletions, replacements,
// disruptions, and last what only adds or changes in place.
func (c Change) RiskRank() int {
	switch {
	case c.DataLoss:
		return 0
	case c.Action == Delete:
		return 1
	case c.Action == Replace:
		return 2
	case c.Disrupts():
		return 3
	}
	return 4
}

// LosesData reports whether any layer of the plan deletes or replaces something that holds
// data.
func (p Plan) LosesData() bool {
	for _, l := range p.Layers {
		for _, c := range l.Changes {
			if c.DataLoss {
				return true
			}
		}
	}
	return false
}
