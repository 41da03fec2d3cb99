package nomad

import (
	"testing"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// Nomad forces a reschedule only where a group's policy allows rescheduling at all: a
// reconcile plans one for those groups alone, and says "them" for more than one allocation.
func TestOnlyGroupsThatMayRescheduleAreRescheduled(t *testing.T) {
	name := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	yes := true
	job := &api.Job{TaskGroups: []*api.TaskGroup{
		{Name: name("app"), ReschedulePolicy: &api.ReschedulePolicy{Attempts: num(0), Unlimited: new(bool)}},
		{Name: name("web"), ReschedulePolicy: &api.ReschedulePolicy{Attempts: num(0), Unlimited: &yes}},
		{Name: name("db"), ReschedulePolicy: &api.ReschedulePolicy{Attempts: num(2), Unlimited: new(bool)}},
		{Name: name("cache")},
	}}
	failed := []executor.Change{
		{Address: "shop--local/app", Detail: "1 allocation failed"},
		{Address: "shop--local/web", Detail: "2 allocations lost"},
		{Address: "shop--local/db", Detail: "1 allocation failed (task pg: Exit Code: 1)"},
		{Address: "shop--local/cache", Detail: "1 allocation failed"},
	}
	plans := reschedulePlans(reschedulable(job, failed))
	var got []string
	for _, p := range plans {
		got = append(got, p.change.Address+": "+p.change.Detail+" · "+p.phrase)
	}
	want := []string{
		"shop--local/web: 2 allocations lost; Nomad places them again · reschedule group web: 2 allocations lost",
		"shop--local/db: 1 allocation failed (task pg: Exit Code: 1); Nomad places it again · reschedule group db: 1 allocation failed (task pg: Exit Code: 1)",
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("reschedules = %q, want %q", got, want)
	}
}
