package nomad

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// The keys of a task group diff's Updates map (Nomad's scheduler annotations).
const (
	updIgnore      = "ignore"
	updCreate      = "create"
	updDestroy     = "destroy"
	updMigrate     = "migrate"
	updCanary      = "canary"
	updInPlace     = "in-place update"
	updDestructive = "create/destroy update"
)

// The diff types Nomad reports for a job, task group, task, field or object.
const (
	diffAdded   = "Added"
	diffDeleted = "Deleted"
	diffEdited  = "Edited"
	diffNone    = "None"
)

// maxDetailNames is how many changed settings a change's detail names before "…".
const maxDetailNames = 4

// groupPlan is one task group's share of a job plan: the change for the preview and the phrase
// for the one-line summary ("in-place update of group app").
type groupPlan struct {
	change executor.Change
	phrase string
}

// groupPlans describes what a plan does to each task group of job id; groups the plan leaves
// alone are not listed. A job-level edit that touches no group is one change on the job.
func groupPlans(unit, id string, job *api.Job, d *api.JobDiff) []groupPlan {
	if d == nil {
		return nil
	}
	var out []groupPlan
	for _, g := range d.TaskGroups {
		if g == nil {
			continue
		}
		if gp, ok := groupPlanOf(unit, id, job, g); ok {
			out = append(out, gp)
		}
	}
	if len(out) == 0 && d.Type == diffEdited {
		what := changedNames(d.Fields, d.Objects, nil)
		out = append(out, groupPlan{
			change: executor.Change{Unit: unit, Action: executor.Update, Address: id, Detail: "job settings changed" + parens(what),
				Attrs: changeAttrs("job settings changed", d.Fields, d.Objects, nil), Nomad: jobData(id, d)},
			phrase: "update of job settings" + parens(what),
		})
	}
	return out
}

func groupPlanOf(unit, id string, job *api.Job, g *api.TaskGroupDiff) (groupPlan, bool) {
	c := executor.Change{Unit: unit, Address: id + "/" + g.Name, Nomad: groupData(id, job, g)} // groupdata.go
	u := g.Updates
	switch g.Type {
	case diffAdded:
		n := int(u[updCreate])
		if n == 0 {
			n = groupCount(job, g.Name)
		}
		c.Action, c.Detail = executor.Create, fmt.Sprintf("new group, %s", allocs(n))
		c.Attrs = changeAttrs("", nil, nil, g.Tasks) // the count is in the detail; the group's policies are Nomad's defaults or the blueprint's
		return groupPlan{change: c, phrase: fmt.Sprintf("new group %s ×%d", g.Name, n)}, true
	case diffDeleted:
		c.Action, c.Detail = executor.Delete, "group removed"
		if n := u[updDestroy]; n > 0 {
			c.Detail += fmt.Sprintf(", stops %s", allocs(int(n)))
		}
		return groupPlan{change: c, phrase: "remove group " + g.Name}, true
	}
	moves := u[updDestructive] + u[updInPlace] + u[updCreate] + u[updDestroy] + u[updCanary] + u[updMigrate]
	// A group the job's edit leaves alone still moves its allocations to the new job version
	// in place: nothing about it changes, so it is not a change to review.
	if g.Type == diffNone && moves == u[updInPlace] {
		return groupPlan{}, false
	}
	var parts []string
	phrase := "update of group " + g.Name
	c.Action = executor.Update
	if n := u[updDestructive]; n > 0 {
		// With max_parallel below the count, Nomad annotates only the first batch as
		// destructive and the rest as ignored for now; every instance is replaced in the end.
		if g.Type == diffEdited {
			n += u[updIgnore]
		}
		c.Action, c.Forces = executor.Replace, forcingPaths(g)
		parts = append(parts, fmt.Sprintf("destructive update ×%d", n))
		phrase = fmt.Sprintf("destructive update of group %s ×%d", g.Name, n)
	}
	if n := u[updInPlace]; n > 0 {
		parts = append(parts, fmt.Sprintf("in-place update ×%d", n))
		if c.Action != executor.Replace {
			phrase = "in-place update of group " + g.Name
		}
	}
	if n := u[updCanary]; n > 0 {
		parts = append(parts, fmt.Sprintf("canary ×%d", n))
	}
	if n := u[updCreate]; n > 0 {
		parts = append(parts, fmt.Sprintf("+%s", allocs(int(n))))
	}
	if n := u[updDestroy]; n > 0 {
		parts = append(parts, fmt.Sprintf("−%s", allocs(int(n))))
	}
	if n := u[updMigrate]; n > 0 {
		parts = append(parts, fmt.Sprintf("migrate ×%d", n))
	}
	if len(parts) == 0 {
		parts = append(parts, "no allocation changes")
	}
	var count string
	for _, f := range g.Fields {
		if f != nil && f.Name == "Count" && f.Type == diffEdited {
			count = fmt.Sprintf("count %s → %s", f.Old, f.New)
		}
	}
	if count != "" && u[updDestructive] == 0 {
		phrase = fmt.Sprintf("group %s %s", g.Name, count)
	}
	what := changedNames(g.Fields, g.Objects, g.Tasks)
	c.Detail = strings.Join(parts, ", ") + parens(what)
	c.Attrs = changeAttrs(strings.Join(parts, ", "), g.Fields, g.Objects, g.Tasks) // attrs.go
	return groupPlan{change: c, phrase: phrase}, true
}

// changedNames lists what changed, shallowly: "count 1 → 2", "Update", "task app (Config)".
func changedNames(fields []*api.FieldDiff, objects []*api.ObjectDiff, tasks []*api.TaskDiff) []string {
	var out []string
	for _, f := range fields {
		switch {
		case f == nil || f.Type == diffNone:
		case f.Name == "Count":
			out = append(out, fmt.Sprintf("count %s → %s", f.Old, f.New))
		default:
			out = append(out, f.Name)
		}
	}
	for _, o := range objects {
		if o != nil && o.Type != diffNone {
			out = append(out, o.Name)
		}
	}
	for _, t := range tasks {
		if t == nil || t.Type == diffNone {
			continue
		}
		switch inner := changedNames(t.Fields, t.Objects, nil); {
		case t.Type == diffAdded:
			out = append(out, "new task "+t.Name)
		case t.Type == diffDeleted:
			out = append(out, "removed task "+t.Name)
		case len(inner) > 0:
			out = append(out, "task "+t.Name+" ("+strings.Join(inner, ", ")+")")
		default:
			out = append(out, "task "+t.Name)
		}
	}
	return out
}

// parens is ": a, b, c" for up to maxDetailNames names, then "…".
func parens(names []string) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) > maxDetailNames {
		names = append(names[:maxDetailNames:maxDetailNames], "…")
	}
	return ": " + strings.Join(names, ", ")
}

// groupCount is a group's declared count (Nomad's default is 1).
func groupCount(job *api.Job, group string) int {
	if job == nil {
		return 1
	}
	for _, tg := range job.TaskGroups {
		if tg != nil && deref(tg.Name) == group {
			if tg.Count == nil {
				return 1
			}
			return *tg.Count
		}
	}
	return 1
}

// groupList is "group app ×1" or "groups app ×1, db ×2" over the job's groups.
func groupList(job *api.Job) string {
	if job == nil || len(job.TaskGroups) == 0 {
		return "no groups"
	}
	var parts []string
	for _, tg := range job.TaskGroups {
		if tg == nil {
			continue
		}
		n := 1
		if tg.Count != nil {
			n = *tg.Count
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", deref(tg.Name), n))
	}
	sort.Strings(parts)
	if len(parts) == 1 {
		return "group " + parts[0]
	}
	return "groups " + strings.Join(parts, ", ")
}

// jobSummary is the preview line for one job: "job nextcloud-local: new, groups app ×1, db ×1",
// "job grafana-local: in-place update of group app", "job x: remove, group app ×1", each
// followed by the placement failures (" — cannot place group app (1 allocation): no node has
// the docker driver").
func jobSummary(id string, kind jobAction, job *api.Job, plans []groupPlan, failures []string) string {
	var s string
	switch kind {
	case actionRegisterNew:
		s = "job " + id + ": new, " + groupList(job)
	case actionDeregister:
		s = "job " + id + ": remove, " + groupList(job)
	default:
		phrases := make([]string, 0, len(plans))
		for _, p := range plans {
			phrases = append(phrases, p.phrase)
		}
		if len(phrases) == 0 {
			phrases = append(phrases, "no changes")
		}
		s = "job " + id + ": " + strings.Join(phrases, ", ")
	}
	for _, f := range failures {
		s += " — " + f
	}
	return s
}

// allocs is "1 allocation" or "3 allocations".
func allocs(n int) string {
	if n == 1 {
		return "1 allocation"
	}
	return fmt.Sprintf("%d allocations", n)
}
