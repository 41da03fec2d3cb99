package salt

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// keptSummary is the Salt row of a destroy: what the destroyed units' states manage stays on
// each minion, named ("kept on eos-minion: /srv/grafana/.eos-volume, /srv/grafana/grafana.ini
// — Salt does not undo host configuration; remove them by hand when no longer needed"), and
// whether destroy --purge-data would remove them (what lies under the minion's data
// directory: "…; add --purge-data to remove them"; purge.go). The
// states are compiled on the minions (state.show_low_sls, which runs nothing); when that
// cannot be done (a minion down, a render error) the row says only that the states are kept,
// and why they are not named: a destroy never fails for want of a list.
func (l *Layer) keptSummary(ctx context.Context, spec executor.Spec) string {
	var parts []string
	some, all := false, true
	for _, u := range spec.Units {
		if u.Salt == nil || !u.Destroy {
			continue
		}
		sets, err := l.purgeSets(ctx, u) // purge.go
		if err != nil {
			executor.Log(ctx, l.log).Warn("cannot name what a destroyed unit's Salt states keep", "unit", u.Service, "err", err)
			return keptNote + " (" + u.Service + "'s states could not be listed: " + firstLine(err.Error()) + ")"
		}
		for _, m := range sortedSets(sets) {
			s := sets[m]
			parts = append(parts, fmt.Sprintf("kept on %s: %s", m, list3(s.Managed)))
			some = some || len(s.Remove) > 0
			all = all && len(s.Kept) == 0
		}
	}
	if len(parts) == 0 {
		return keptNote
	}
	tail := "remove them by hand when no longer needed"
	switch {
	case some && all:
		tail = "add --purge-data to remove them"
	case some:
		tail = "add --purge-data to remove what lies under the minion's data directory, and remove the rest by hand when no longer needed"
	}
	return strings.Join(parts, "; ") + " — Salt does not undo host configuration; " + tail
}

// keptBy compiles a destroyed unit's state on the minions its targets resolve to (on) and
// names, per minion, what it manages: a file's path, any other state as "lvm.lv_present
// data-x".
func (l *Layer) keptBy(ctx context.Context, u executor.Unit) (_ map[string][]string, on []string, err error) {
	on, err = l.resolve(ctx, u)
	if err != nil {
		return nil, nil, err
	}
	sls, err := l.writeState(ctx, u, true, nil)
	if err != nil {
		return nil, nil, err
	}
	low, err := l.lowStates(ctx, sls, on, u.Salt.Pillar)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]string{}
	for _, m := range on {
		idx, ok := low[m]
		if !ok {
			return nil, nil, fmt.Errorf("minion %s did not compile the state", m)
		}
		var names []string
		for _, c := range idx {
			switch {
			case c.State == "test":
				// test.* states (the local variants' guard) manage nothing.
			case c.State == "file":
				names = append(names, c.Name)
			default:
				names = append(names, c.State+"."+c.Fun+" "+c.Name)
			}
		}
		if len(names) > 0 {
			sort.Strings(names)
			out[m] = names
		}
	}
	return out, on, nil
}

func sortedMinions(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
