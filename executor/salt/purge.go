package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// What destroy --purge-data removes. Salt has no undo: a destroy keeps what the unit's states
// configured, and the preview names it (kept.go). With Spec.PurgeData the layer removes, on
// each minion, what the states manage under the minion's data directory (eos_data_dir, a
// setting of the minion's own configuration, which the shipped blueprints' local variants
// write under): the service's directory there whole, when every such file lies in one
// directory named after the service (srv/nextcloud-local), so that what the service wrote
// next to them goes too; else each managed file there. Nothing outside the data directory is
// ever removed, nor is the data directory itself: a minion without eos_data_dir keeps
// everything, as do the production variants' volumes and packages. The removals run as a state
// Eos writes (purgeState), one file.absent per path, whose paths come as pillar data and which
// checks again on the minion that each lies under eos_data_dir; the plan dry-runs it, so the
// preview lists each removal as a destroy that loses data.

// purgeState removes the paths of pillar eos_purge[<minion id>] that lie under the minion's
// eos_data_dir; any other path fails its state instead of being touched.
const purgeState = `{#- Written by Eos for destroy --purge-data: removes what the service's states created under
    the minion's eos_data_dir, never anything outside it. #}
{%- set data_dir = salt['config.get']('eos_data_dir', '') | string %}
{%- set root = data_dir.rstrip('/') ~ '/' %}
{%- for p in salt['pillar.get']('eos_purge', {}).get(grains['id'], []) %}
{%- if data_dir.startswith('/') and root != '/' and p.startswith(root) and '..' not in p.split('/') %}

{{ p | yaml_dquote }}:
  file.absent: []
{%- else %}

{{ p | yaml_dquote }}:
  test.fail_without_changes:
    - comment: "not under the minion's eos_data_dir: destroy --purge-data removes nothing else"
{%- endif %}
{%- endfor %}
`

// purgeSet is what --purge-data removes on one minion of what a unit's states manage, and
// what it keeps.
type purgeSet struct {
	// Managed is everything the states manage there, Remove what --purge-data removes of it
	// (the service's directory, or files), Kept the rest.
	Managed, Remove, Kept []string
}

// purgeOf splits what a unit's states manage on a minion (file paths, other states as
// "lvm.lv_present data-x") by whether --purge-data removes it, given the minion's data
// directory ("" when it has none).
func purgeOf(service, dataDir string, managed []string) purgeSet {
	s := purgeSet{Managed: managed}
	dataDir = path.Clean(dataDir)
	var under []string
	for _, m := range managed {
		if strings.HasPrefix(dataDir, "/") && dataDir != "/" && strings.HasPrefix(m, dataDir+"/") && path.Clean(m) == m {
			under = append(under, m)
		} else {
			s.Kept = append(s.Kept, m)
		}
	}
	if len(under) == 0 {
		return s
	}
	dir := path.Dir(under[0])
	for _, p := range under[1:] {
		for dir != dataDir && !strings.HasPrefix(p, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	if dir != dataDir && strings.HasPrefix(dir, dataDir+"/") && strings.Contains(path.Base(dir), service) {
		s.Remove = []string{dir}
	} else {
		s.Remove = under
	}
	return s
}

// purgeSets works out, per minion the unit's targets resolve to, what --purge-data removes of
// what its states manage (keptBy) and what it keeps.
func (l *Layer) purgeSets(ctx context.Context, u executor.Unit) (map[string]purgeSet, error) {
	managed, on, err := l.keptBy(ctx, u)
	if err != nil {
		return nil, err
	}
	dirs, err := l.dataDirs(ctx, on)
	if err != nil {
		return nil, err
	}
	out := map[string]purgeSet{}
	for m, names := range managed {
		out[m] = purgeOf(u.Service, dirs[m], names)
	}
	return out, nil
}

// dataDirs asks the minions on for their eos_data_dir (datadir.go); a minion without one,
// or that does not answer, has "".
func (l *Layer) dataDirs(ctx context.Context, on []string) (map[string]string, error) {
	tgt, tgtType, _ := onList(on)
	dirs, _, err := l.dataDirsOf(ctx, tgt, tgtType)
	return dirs, err
}

// purgeUnits are the units that remove what --purge-data removes of the spec's destroyed
// units, one per unit that has anything to remove, targeting the minions it is on; and the
// row's note of what stays ("kept on eos-minion: lvm.lv_present data-x").
func (l *Layer) purgeUnits(ctx context.Context, spec executor.Spec) ([]executor.Unit, []string, error) {
	var units []executor.Unit
	var kept []string
	for _, u := range spec.Units {
		if u.Salt == nil || !u.Destroy {
			continue
		}
		sets, err := l.purgeSets(ctx, u)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: working out what --purge-data removes: %w", u.Service, err)
		}
		remove := map[string]any{}
		var on, holds []string
		for _, m := range sortedSets(sets) {
			s := sets[m]
			if len(s.Kept) > 0 {
				kept = append(kept, fmt.Sprintf("kept on %s: %s", m, list3(s.Kept)))
			}
			if len(s.Remove) > 0 {
				remove[m] = s.Remove
				on = append(on, m)
				holds = append(holds, s.Remove...)
			}
		}
		if len(on) == 0 {
			continue
		}
		units = append(units, executor.Unit{Service: u.Service, Salt: &executor.SaltPart{
			State: "purge-data.sls", Text: purgeState, Pillar: map[string]any{"eos_purge": remove},
			Targets: on, HoldsData: holds,
		}})
	}
	return units, kept, nil
}

// planPurge is the Salt plan of a destroy --purge-data: the dry run of the units that remove
// what it removes, each a destroy that loses data, with what stays named after them.
func (l *Layer) planPurge(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	units, kept, err := l.purgeUnits(ctx, spec)
	if err != nil {
		return executor.LayerPlan{Layer: executor.Salt}, err
	}
	keptText := ""
	if len(kept) > 0 {
		keptText = strings.Join(kept, "; ") + " — Salt does not undo host configuration, and --purge-data removes only what lies under the minion's data directory"
	}
	if len(units) == 0 {
		p := executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanNoChanges, Digest: "salt: kept\n"}
		p.Summary = "--purge-data finds nothing under the minions' data directory"
		if keptText != "" {
			p.Summary += "; " + keptText
		}
		p.Kept = p.Summary
		return p, nil
	}
	purge := spec
	purge.Units, purge.PurgeData = units, false
	p, err := l.Plan(ctx, purge)
	if err != nil {
		return p, err
	}
	if keptText != "" {
		p.Summary += "; " + keptText
		p.Kept = keptText
	}
	var ps planState
	_ = json.Unmarshal(p.State, &ps)
	ps.Purge = units
	p.State, _ = json.Marshal(ps)
	return p, nil
}

func sortedSets(m map[string]purgeSet) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
