package nomad

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// Nomad's names for the reasons a node is filtered out (scheduler/feasible.go).
const (
	filterDrivers     = "missing drivers"
	filterHostVolumes = "missing compatible host volumes"
	filterDevices     = "missing devices"
)

// placementFailures says in plain words, group by group, why Nomad cannot place a job's
// allocations: "cannot place group app (1 allocation): no node has the docker driver".
func (l *Layer) placementFailures(ctx context.Context, job *api.Job, failed map[string]*api.AllocationMetric) []string {
	if len(failed) == 0 {
		return nil
	}
	groups := make([]string, 0, len(failed))
	for g := range failed {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var out []string
	for _, g := range groups {
		m := failed[g]
		if m == nil {
			continue
		}
		var missing []string
		if m.ConstraintFiltered[filterDrivers] > 0 {
			missing = l.missingDrivers(ctx, groupDrivers(job, g))
		}
		out = append(out, fmt.Sprintf("cannot place group %s (%s): %s",
			g, allocs(m.CoalescedFailures+1), describeMetric(m, missing, job)))
	}
	return out
}

// describeMetric turns the scheduler's metrics for one group into reasons. missing are the
// drivers no ready node has, when the scheduler filtered nodes for missing drivers.
func describeMetric(m *api.AllocationMetric, missing []string, job *api.Job) string {
	var reasons []string
	if m.NodesEvaluated == 0 {
		dcs := []string{"its datacenters"}
		if job != nil && len(job.Datacenters) > 0 {
			dcs = job.Datacenters
		}
		reasons = append(reasons, "no ready node in "+strings.Join(dcs, ", "))
	}
	for _, k := range sortedKeys(m.ConstraintFiltered) {
		n := m.ConstraintFiltered[k]
		switch k {
		case filterDrivers:
			switch len(missing) {
			case 0:
				reasons = append(reasons, fmt.Sprintf("%s lack a driver the tasks need", nodes(n)))
			case 1:
				reasons = append(reasons, "no node has the "+missing[0]+" driver")
			default:
				reasons = append(reasons, "no node has the "+strings.Join(missing, ", ")+" drivers")
			}
		case filterHostVolumes:
			reasons = append(reasons, fmt.Sprintf("%s lack the host volumes the group mounts", nodes(n)))
		case filterDevices:
			reasons = append(reasons, fmt.Sprintf("%s lack the devices the group needs", nodes(n)))
		default:
			reasons = append(reasons, fmt.Sprintf("%s excluded by constraint %s", nodes(n), k))
		}
	}
	for _, k := range sortedKeys(m.ClassFiltered) {
		reasons = append(reasons, fmt.Sprintf("%s of class %s filtered out", nodes(m.ClassFiltered[k]), k))
	}
	for _, k := range sortedKeys(m.DimensionExhausted) {
		what := strings.TrimPrefix(k, "network: ")
		reasons = append(reasons, fmt.Sprintf("not enough %s on %s", what, nodes(m.DimensionExhausted[k])))
	}
	if len(m.QuotaExhausted) > 0 {
		reasons = append(reasons, "quota exhausted ("+strings.Join(m.QuotaExhausted, ", ")+")")
	}
	if len(reasons) == 0 {
		reasons = append(reasons, fmt.Sprintf("none of the %s evaluated can run it", nodes(m.NodesEvaluated)))
	}
	return strings.Join(reasons, "; ")
}

// missingDrivers are the drivers in want that no ready node has detected and healthy. When
// the node list cannot be read, it is want itself: the scheduler already said one is missing.
func (l *Layer) missingDrivers(ctx context.Context, want []string) []string {
	stubs, _, err := l.client.Nodes().List(l.query(ctx))
	if err != nil {
		l.log.Warn("listing nomad nodes to name a missing driver", "error", err)
		return want
	}
	have := map[string]bool{}
	for _, n := range stubs {
		if n == nil || n.Status != "ready" {
			continue
		}
		for name, d := range n.Drivers {
			if d != nil && d.Detected && d.Healthy {
				have[name] = true
			}
		}
	}
	var out []string
	for _, d := range want {
		if !have[d] {
			out = append(out, d)
		}
	}
	return out
}

// groupDrivers are the distinct drivers of a group's tasks, sorted.
func groupDrivers(job *api.Job, group string) []string {
	seen := map[string]bool{}
	if job != nil {
		for _, tg := range job.TaskGroups {
			if tg == nil || deref(tg.Name) != group {
				continue
			}
			for _, t := range tg.Tasks {
				if t != nil && t.Driver != "" {
					seen[t.Driver] = true
				}
			}
		}
	}
	return sortedKeys(seen)
}

func nodes(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
