package salt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// keptNote is what the layer says about units being destroyed: Salt has no undo, and what a
// state configured on a host stays.
const keptNote = "Salt states kept: Salt does not undo host configuration"

// planState is the layer-private part of a plan Apply reads.
type planState struct {
	// States is how many states the dry run saw, the progress total of the apply.
	States int `json:"states"`
	// Targets are the minions each unit's targets resolved to when the plan was made, by
	// service; the apply runs on exactly these.
	Targets map[string][]string `json:"targets,omitempty"`
	// Purge are the units a destroy --purge-data applies to remove what it removes
	// (purge.go), as planned.
	Purge []executor.Unit `json:"purge,omitempty"`
}

// unitRun is one unit's dry run on the minions its targets resolved to.
type unitRun struct {
	unit executor.Unit
	on   []string
	rets []minionReturn
}

// saltUnits are the units the layer runs states for.
func saltUnits(spec executor.Spec) []executor.Unit {
	var out []executor.Unit
	for _, u := range spec.Units {
		if u.Salt != nil && !u.Destroy {
			out = append(out, u)
		}
	}
	return out
}

// Plan dry-runs each unit's state (state.apply with test=True and the unit's pillar) on its
// targets. States that would change and states that would fail are the plan's changes,
// listed per minion in the summary.
func (l *Layer) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	p := executor.LayerPlan{Layer: executor.Salt}
	if !spec.Has(executor.Salt) {
		p.Status, p.Summary = executor.PlanNothing, "nothing to do"
		return p, nil
	}
	if spec.Adopt {
		return l.planAdopt(ctx, spec)
	}
	if len(saltUnits(spec)) == 0 && spec.PurgeData {
		return l.planPurge(ctx, spec) // purge.go
	}
	if len(saltUnits(spec)) == 0 {
		p.Status, p.Digest = executor.PlanNoChanges, "salt: kept\n"
		p.Summary = l.keptSummary(ctx, spec)
		p.Kept = p.Summary
		return p, nil
	}
	runs, err := l.dryRun(ctx, spec)
	if err != nil {
		return p, err
	}
	ps := planState{Targets: map[string][]string{}}
	var summaries, digest []string
	for _, r := range runs {
		line, err := l.digestLine(r.unit, r.on)
		if err != nil {
			return p, err
		}
		digest = append(digest, line)
		ps.Targets[r.unit.Service] = r.on
		if tgt, tgtType, _ := l.target(r.unit); tgtType == "glob" && !slices.Contains(summaries, targetNote(tgt, r.on)) {
			summaries = append(summaries, targetNote(tgt, r.on))
		}
		low := l.triggerIndex(ctx, r)
		for _, m := range r.rets {
			ps.States += len(m.States)
			p.Changes = append(p.Changes, changesOf(r.unit, m, low[m.Minion])...)
			shown := maskerFor(r.unit).namesOf(m).ret(m) // ids and names masked (namemask.go)
			p.Failures = append(p.Failures, failuresOf(shown)...)
			summaries = append(summaries, minionSummary(shown))
		}
	}
	for _, c := range p.Changes {
		digest = append(digest, fmt.Sprintf("%s %s %s %s", c.Unit, c.Action, c.Address, c.Detail))
	}
	p.Status = executor.PlanNoChanges
	if len(p.Changes) > 0 {
		p.Status = executor.PlanChanges
	}
	p.Summary = strings.Join(summaries, "; ")
	p.Digest = strings.Join(digest, "\n") + "\n"
	p.State, _ = json.Marshal(ps)
	return p, nil
}

// Drift dry-runs the declared states against the declared pillar: states that would change
// (or fail) have drifted. A failed check is DriftUnknown, never clean; the error is only the
// context's.
func (l *Layer) Drift(ctx context.Context, spec executor.Spec) (executor.LayerDrift, error) {
	d := executor.LayerDrift{Layer: executor.Salt}
	if len(saltUnits(spec)) == 0 {
		d.Status, d.Reason = executor.DriftSkipped, "no Salt states to check"
		return d, nil
	}
	runs, err := l.dryRun(ctx, spec)
	if err != nil {
		d.Status, d.Reason = executor.DriftUnknown, err.Error()
		return d, ctx.Err()
	}
	for _, r := range runs {
		for _, m := range r.rets {
			d.Changes = append(d.Changes, changesOf(r.unit, m, nil)...)
		}
	}
	d.Status = executor.DriftClean
	if len(d.Changes) > 0 {
		d.Status = executor.DriftDrifted
	}
	return d, nil
}

// changesOf lists a minion's states that would change (Update) or fail (NoOp, "would fail:
// ..."), in execution order. Addresses are "<minion>: <state>". A state that would restart a
// service, change a mount or format or remove a volume says so in Forces (naming its
// triggers from low, the minion's compiled states, when known), with the action that fits and
// DataLoss when it touches a path the unit says holds data. A file whose content would change
// carries its diff, masked (diffmask.go). Each change that would happen carries the state as
// data (executor.SaltState), its changes masked the same way.
func changesOf(u executor.Unit, m minionReturn, low lowIndex) []executor.Change {
	var out []executor.Change
	masker := maskerFor(u)
	names := masker.namesOf(m) // namemask.go
	for _, s := range m.States {
		shown := masker.with(append(names.shown(s.Name, s.ID), m.seen()...)...)
		ms := names.state(s) // what the change shows of s: its id and name masked
		switch {
		case s.failed():
			c := executor.Change{Unit: u.Service, Action: executor.NoOp, Address: m.Minion + ": " + ms.display(), Detail: "would fail: " + firstLine(ms.Comment),
				Salt: &executor.SaltState{Minion: m.Minion, ID: ms.ID, Function: s.function(), Name: ms.Name, Changes: shown.changes(s.Changes, ""), Triggers: []string{}}}
			out = append(out, c)
		case s.wouldChange():
			detail := ms.Detail
			if detail == "" {
				detail = firstLine(ms.Comment)
			}
			c := executor.Change{Unit: u.Service, Action: s.Kind, Address: m.Minion + ": " + ms.display(), Detail: detail}
			if s.Diff != "" {
				c.Diff = shown.mask(s.Diff)
			}
			data := &executor.SaltState{Minion: m.Minion, ID: ms.ID, Function: s.function(), Name: ms.Name,
				Changes: shown.changes(s.Changes, c.Diff), Triggers: []string{}}
			if r, ok := assess(s, m, low, u.Salt.HoldsData); ok {
				c.Action, c.Forces, c.DataLoss = r.action, names.text(r.forces), r.dataLoss
				data.Restart, data.Service, data.Mount, data.Format, data.Remove, data.DataPath = r.restart, names.text(r.service), r.mount, r.format, r.remove, names.text(r.dataPath)
				if len(r.triggers) > 0 {
					data.Triggers = names.texts(r.triggers)
				}
			}
			c.Salt = data
			out = append(out, c)
		}
	}
	return out
}

// requisiteFailed is how Salt starts the comment of a state it did not try because a state
// it requires failed.
const requisiteFailed = "One or more requisite failed"

// failuresOf are the states of a minion's dry run that say the apply would fail, one line
// each, naming the minion, the state and Salt's reason: "eos-minion: file.managed config
// (/srv/gitea/app.ini): Source file salt://gitea/app.ini not found in saltenv 'base'". A
// state that fails only because a state it requires failed is left out when that state is
// named: its reason is the other's.
func failuresOf(m minionReturn) []string {
	var own, requisite []string
	for _, s := range m.States {
		if !s.failed() {
			continue
		}
		line := m.Minion + ": " + s.display() + ": " + firstLine(s.Comment)
		if strings.HasPrefix(s.Comment, requisiteFailed) {
			requisite = append(requisite, line)
		} else {
			own = append(own, line)
		}
	}
	if len(own) > 0 {
		return own
	}
	return requisite
}

// triggerIndex compiles a unit's state on the minions whose dry run would restart a service,
// so that the plan can name what triggers the restart. Failing that, the restart is still
// marked, without its triggers.
func (l *Layer) triggerIndex(ctx context.Context, r unitRun) map[string]lowIndex {
	var on []string
	for _, m := range r.rets {
		if needsTriggers(m) {
			on = append(on, m.Minion)
		}
	}
	if len(on) == 0 {
		return nil
	}
	_, sls, err := l.slsFor(r.unit)
	if err == nil {
		var low map[string]lowIndex
		if low, err = l.lowStates(ctx, sls, on, r.unit.Salt.Pillar); err == nil {
			return low
		}
	}
	executor.Log(ctx, l.log).Warn("cannot name what triggers a restart", "unit", r.unit.Service, "err", err)
	return nil
}

// minionSummary is one minion's part of the preview row, counts first as Terraform's:
// "+2 ~1 −0 on node1: data-nextcloud, fs-nextcloud, mount-nextcloud", then what would fail
// ("· 1 would fail: data-gitea"); "no changes on node2 (2 states)". States are named by their
// id; the full plan has the rest.
func minionSummary(m minionReturn) string {
	var ids, fail []string
	var add, change, remove int
	for _, s := range m.States {
		switch {
		case s.failed():
			fail = append(fail, s.shortName())
		case s.wouldChange():
			ids = append(ids, s.shortName())
			switch s.Kind {
			case executor.Create:
				add++
			case executor.Delete:
				remove++
			default:
				change++
			}
		}
	}
	if len(ids) == 0 && len(fail) == 0 {
		return fmt.Sprintf("no changes on %s (%s)", m.Minion, plural(len(m.States), "state"))
	}
	s := fmt.Sprintf("+%d ~%d −%d on %s", add, change, remove, m.Minion)
	if len(ids) > 0 {
		s += ": " + list3(relative(ids))
	}
	if len(fail) > 0 {
		s += fmt.Sprintf(" · %d would fail: %s", len(fail), list3(fail))
	}
	return s
}

// relative writes state ids that are absolute paths relative to the directory they share
// (the service's root, for a unit whose states name their files by path), so the row names
// "app.conf, volume.marker", not the minion's whole data path twice.
func relative(ids []string) []string {
	var root string
	for _, id := range ids {
		if !strings.HasPrefix(id, "/") {
			continue
		}
		dir := path.Dir(id)
		switch {
		case root == "":
			root = dir
		default:
			for root != "/" && !strings.HasPrefix(dir+"/", root+"/") {
				root = path.Dir(root)
			}
		}
	}
	if root == "" || root == "/" {
		return ids
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.TrimPrefix(id, root+"/")
	}
	return out
}

// digestLine is the stable text of what a unit's run does: which state text, on which
// minions (those its targets resolved to), with which pillar (hashed: the digest is stored and
// shown in logs).
func (l *Layer) digestLine(u executor.Unit, on []string) (string, error) {
	_, sls, err := l.slsFor(u)
	if err != nil {
		return "", err
	}
	tgt, tgtType, _ := onList(on)
	pillar, err := json.Marshal(u.Salt.Pillar) // map keys are sorted: stable
	if err != nil {
		return "", fmt.Errorf("%s: encoding the pillar: %w", u.Service, err)
	}
	sum := sha256.Sum256(pillar)
	return fmt.Sprintf("unit %s sls %s %s %s pillar %s", u.Service, sls, tgtType, tgt, hex.EncodeToString(sum[:])), nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// list3 names up to three items and marks the rest with an ellipsis.
func list3(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:3], ", ") + ", …"
}

// minionsOf lists the minions of returns, sorted.
func minionsOf(rets []minionReturn) []string {
	var out []string
	for _, m := range rets {
		out = append(out, m.Minion)
	}
	sort.Strings(out)
	return out
}
