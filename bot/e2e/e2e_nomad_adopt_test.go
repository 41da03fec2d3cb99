package e2e_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// A job scaled by hand is drift; a 📥 on the drift answer plans adopting it, whose run
// registers nothing and declares the running version, after which the job is no longer drift
// and a reconcile plans nothing.
func TestNomadScaledByHandIsAdopted(t *testing.T) {
	t.Parallel()
	b := newNomadBot(t)
	in := " in " + b.env
	b.run(t, "@eos create webapp"+in, "done in")
	// What runs is what is declared: an adopt would record nothing new, so it is not planned.
	nothing := "webapp in " + b.env + " already matches its declared state: Nomad has nothing to change, so there is nothing to adopt and nothing is planned."
	b.say("@eos adopt webapp"+in, nothing)
	job, _ := b.current(t)
	group := *job.TaskGroups[0].Name
	count := 2
	if _, _, err := b.api.Jobs().Scale(b.job, group, &count, "scaled by hand", false, nil, nil); err != nil {
		t.Fatalf("scaling %s by hand: %v", b.job, err)
	}
	scaled, _ := b.current(t)
	answer := b.say("@eos drift webapp"+in, "1 of 1 services drifted", "Nomad", "on this post")

	after := b.Last()
	b.React("alice", answer.ID, "📥")
	p := b.WaitText(after, "adopt webapp in "+b.env+" · asked by @alice", "React ✅ to approve")
	if want := "becomes the declared job; nothing registered"; !strings.Contains(p.Text, want) {
		t.Errorf("adopt preview lacks %q:\n%s", want, p.Text)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
	b.React("bob", p.ID, "+1")
	b.WaitText(p.ID, "Run "+id+" · done in", "Nomad ✅ declared as it runs, nothing registered")

	now, _ := b.current(t)
	if *now.Version != *scaled.Version || *now.TaskGroups[0].Count != 2 {
		t.Errorf("after the adopt the job is version %d with %d allocations, want version %d left at 2", *now.Version, *now.TaskGroups[0].Count, *scaled.Version)
	}
	d, err := b.Store.Declared(context.Background(), b.env+"/webapp")
	if err != nil {
		t.Fatal(err)
	}
	adopted := d.Spec.Units[0].Nomad.Adopted
	if adopted == nil || adopted.Version != *scaled.Version || d.Spec.Adopt {
		t.Fatalf("declared webapp: adopted %+v, Adopt %v; want version %d recorded", adopted, d.Spec.Adopt, *scaled.Version)
	}
	b.say("@eos drift webapp"+in, "webapp in "+b.env+" matches its declared state")
	// A reconcile afterwards has nothing to do: answered so, with no plan to approve.
	b.say("@eos reconcile webapp"+in, "webapp in "+b.env+" already matches its declared state: Nomad has nothing to change, so there is nothing to reconcile and nothing is planned.")
	b.say("@eos adopt webapp"+in, nothing)
}
