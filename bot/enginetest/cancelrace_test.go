package enginetest_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// replanGate is a Salt layer whose second plan of a target (the re-plan that binds an
// approval, just before the run starts) waits at a gate, so a test can act in that moment.
type replanGate struct {
	slowSalt
	replan *gate
	mu     sync.Mutex
	plans  map[string]int
}

func (l *replanGate) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	l.mu.Lock()
	l.plans[spec.Target]++
	n := l.plans[spec.Target]
	l.mu.Unlock()
	if n == 2 {
		if err := l.replan.pass(ctx); err != nil {
			return executor.LayerPlan{}, err
		}
	}
	return l.slowSalt.Plan(ctx, spec)
}

// approvedWhileReplanning asks for grafana as alice and has bob approve it, and returns when
// the run plans again before applying, held there until salt.replan opens; Salt's apply waits
// at applying.
func approvedWhileReplanning(t *testing.T) (h *eostest.Harness, salt *replanGate, applying *gate, p console.Post, id string) {
	t.Helper()
	applying = newGate()
	salt = &replanGate{slowSalt: slowSalt{apply: map[string]*gate{"grafana": applying}}, replan: newGate(), plans: map[string]int{}}
	h = eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}, Policy: bobApprovesPolicy()})
	t.Cleanup(applying.open)
	t.Cleanup(salt.replan.open)
	p, id = eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	salt.replan.arrived(t, "the re-plan before applying")
	return h, salt, applying, p, id
}

func bobApprovesPolicy() bot.Policy {
	bob := bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}
	return bot.Policy{Default: bob, Envs: map[string]bot.EnvPolicy{"local": bob}}
}

// A cancel typed after the approval, while Eos plans again before applying, cancels the plan:
// the run never starts, nothing is applied, the lock is free. Before, the plan was approved in
// the store with no run yet, and cancel could answer "approved, not pending: nothing to cancel"
// and let it apply.
func TestCancelBetweenApprovalAndRunStartCancels(t *testing.T) {
	t.Parallel()
	h, salt, applying, p, id := approvedWhileReplanning(t)

	h.Say("alice", "@eos cancel "+id)
	if a := answerTo(t, h, "@eos cancel "+id, promptly); !strings.Contains(a.Text, "Plan "+id+" cancelled by @alice before its run started. Nothing changed.") {
		t.Errorf("a cancel during the re-plan was answered %q", a.Text)
	}
	salt.replan.open()
	h.Idle()
	select {
	case <-applying.entered:
		t.Fatal("Salt applied a plan cancelled before its run started")
	default:
	}
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Errorf("a run was recorded for a plan cancelled before it started: %+v", r)
	}
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanCancelled {
		t.Errorf("plan state = %s, want cancelled", pl.State)
	}
	if locks, _ := h.Store.Locks(context.Background()); len(locks) != 0 {
		t.Errorf("locks left: %+v", locks)
	}
	waitPreview(t, h, p, "cancelled by @alice · nothing changed")
}

// A ❌ from an approver after the approval, before the run starts, cancels it the same way.
func TestRejectAfterApprovalBeforeRunStartCancels(t *testing.T) {
	t.Parallel()
	h, salt, applying, p, id := approvedWhileReplanning(t)
	h.React("bob", p.ID, "x")
	h.WaitText(p.ID, "Plan "+id+" cancelled by @bob before its run started. Nothing changed.")
	salt.replan.open()
	h.Idle()
	select {
	case <-applying.entered:
		t.Fatal("Salt applied a plan rejected before its run started")
	default:
	}
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Errorf("a run was recorded for a plan rejected before it started: %+v", r)
	}
}

// An approval and a cancel sent back to back through the console, many times: the cancel is
// never refused as "not pending", and when it came before the run's first layer, nothing is
// applied. Run with -race, this also races the engine's two paths.
func TestApprovalAndCancelBackToBack(t *testing.T) {
	t.Parallel()
	salt := &slowSalt{apply: map[string]*gate{}}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}, Policy: bobApprovesPolicy()})
	for i := 0; i < 8; i++ {
		applying := newGate()
		salt.apply["grafana"] = applying
		p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
		h.React("bob", p.ID, "+1")
		h.Say("alice", "@eos cancel "+id)
		a := answerTo(t, h, "@eos cancel "+id, promptly)
		// Handled before the approval (a pending plan), or after it but before the run started.
		before := strings.Contains(a.Text, "Plan "+id+" cancelled by @alice")
		if !before && !strings.Contains(a.Text, "Stopping run "+id) {
			applying.open()
			t.Fatalf("round %d: the cancel right after the approval was answered %q", i, a.Text)
		}
		entered := false
		select {
		case <-applying.entered:
			entered = true
		default:
		}
		applying.open()
		h.Idle()
		if before && entered {
			t.Fatalf("round %d: Salt applied a plan cancelled before its run started", i)
		}
		if r, err := h.Store.Run(context.Background(), id); err == nil && r.State != store.RunStopped {
			t.Fatalf("round %d: run after the cancel = %s, want stopped or none", i, r.State)
		}
		if d, err := h.Store.Declared(context.Background(), "local/grafana"); err == nil && !d.Destroyed {
			t.Fatalf("round %d: grafana was declared after a cancelled run", i)
		}
	}
}

// `cancel` without an id, with several plans of yours pending, names them and cancels none:
// ending the latest could end the wrong one.
func TestCancelWithoutAnIDListsSeveralPendingPlans(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	_, first := eostest.Preview(t, h, "alice", "@eos create grafana")
	_, second := eostest.Preview(t, h, "alice", "@eos create jenkins")
	h.Say("alice", "@eos cancel")
	a := answerTo(t, h, "@eos cancel", promptly)
	for _, want := range []string{"You have 2 pending plans; name the one to cancel. Nothing was cancelled.",
		first + " · create grafana in local", "@eos cancel " + first, second + " · create jenkins in local"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("cancel without an id lacks %q:\n%s", want, a.Text)
		}
	}
	for _, id := range []string{first, second} {
		if p, _ := h.Store.Plan(context.Background(), id); p.State != store.PlanPending {
			t.Errorf("plan %s = %s after a cancel without an id, want pending", id, p.State)
		}
	}
	h.Say("alice", "@eos cancel "+second)
	if a := answerTo(t, h, "@eos cancel "+second, promptly); !strings.Contains(a.Text, "Plan "+second+" cancelled by @alice") {
		t.Errorf("cancel %s was answered %q", second, a.Text)
	}
	after := h.Last()
	h.Say("bob", "@eos cancel")
	h.WaitText(after, "You have no pending plan to cancel")
}

// Every audit line names its actor: what no person did (a run's start and result, an
// expiry) is Eos's.
func TestEveryAuditLineNamesItsActor(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	entries, err := h.Store.Audit(context.Background(), func(*store.Entry) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range entries {
		if e.User == "" {
			t.Errorf("audit line without an actor: %+v", e)
		}
		kinds[e.Kind] = e.User
	}
	if kinds["request"] != "alice" || kinds["approval"] != "bob" || kinds["result"] != "eos" {
		t.Errorf("actors by kind = %v; want alice asked, bob approved, eos recorded the result", kinds)
	}
}

// A policy tightened between the approval and the run's start is the one the run is judged
// by: the plan goes back to waiting, nothing is applied, the lock is free.
func TestAPolicyTightenedBeforeTheRunStartsStopsIt(t *testing.T) {
	t.Parallel()
	h, salt, applying, p, id := approvedWhileReplanning(t)
	two := bobApprovesPolicy()
	two.Default.Approvers, two.Default.Approvals = []string{"bob", "dave"}, 2
	two.Envs["local"] = two.Default
	h.Engine.SetPolicy(context.Background(), two)
	salt.replan.open()
	h.WaitText(p.ID, "Plan "+id+" was approved, but under the current policy its approvals do not suffice (1 of 2")
	h.Idle()
	select {
	case <-applying.entered:
		t.Fatal("Salt applied a plan the policy in force no longer lets run")
	default:
	}
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanPending {
		t.Errorf("plan = %s, want pending", pl.State)
	}
	if locks, _ := h.Store.Locks(context.Background()); len(locks) != 0 {
		t.Errorf("locks left: %+v", locks)
	}
	h.React("dave", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · ")
}
