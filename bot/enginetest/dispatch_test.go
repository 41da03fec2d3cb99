package enginetest_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// promptly is how long an answer may take while another conversation is blocked: far more
// than an answer needs on a loaded machine, far less than the blocked plan would take.
const promptly = 15 * time.Second

// gate holds whoever passes it until the test releases it, and says when someone arrived.
type gate struct {
	entered, release chan struct{}
	once             sync.Once
}

func newGate() *gate { return &gate{entered: make(chan struct{}), release: make(chan struct{})} }

// open releases whoever waits, if the test has not yet.
func (g *gate) open() {
	select {
	case <-g.release:
	default:
		close(g.release)
	}
}

func (g *gate) pass(ctx context.Context) error {
	g.once.Do(func() { close(g.entered) })
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// arrived waits until someone is held at the gate.
func (g *gate) arrived(t *testing.T, what string) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(eostest.Timeout):
		t.Fatalf("%s never started", what)
	}
}

// slowSalt is a hand-written Salt layer: planning or applying a service that has a gate
// waits at it; everything else is instant. It records rollbacks, which a stop must not do.
type slowSalt struct {
	plan, apply map[string]*gate

	mu        sync.Mutex
	rollbacks int
}

func (l *slowSalt) Name() executor.LayerName { return executor.Salt }

func (l *slowSalt) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	if g := l.plan[spec.Target]; g != nil {
		if err := g.pass(ctx); err != nil {
			return executor.LayerPlan{}, err
		}
	}
	return executor.LayerPlan{Status: executor.PlanChanges, Summary: "1 state", Digest: "salt " + spec.Target,
		Changes: []executor.Change{{Unit: spec.Target, Action: executor.Create, Address: spec.Target + ".sls"}}}, nil
}

func (l *slowSalt) Apply(ctx context.Context, spec executor.Spec, _ executor.LayerPlan, obs executor.Observer) (executor.LayerResult, error) {
	report := executor.Heard(obs).Event
	report(executor.Event{Layer: executor.Salt, Total: 1})
	if g := l.apply[spec.Target]; g != nil {
		if err := g.pass(ctx); err != nil {
			return executor.LayerResult{}, err
		}
	}
	return executor.LayerResult{Summary: "1 state", Done: 1, Total: 1}, nil
}

func (l *slowSalt) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}

func (l *slowSalt) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rollbacks++
	return "undone", errors.New("a stop must not roll back")
}

func (l *slowSalt) rolledBack() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rollbacks
}

// answerTo waits, at most within, for the bot's reply in the thread of the post of text.
func answerTo(t *testing.T, h *eostest.Harness, text string, within time.Duration) console.Post {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var found console.Post
	_, err := h.Console.WaitFor(ctx, func(posts []console.Post) bool {
		for _, q := range posts {
			if q.Author != "eos" || q.Thread == 0 {
				continue
			}
			if root := posts[q.Thread-1]; root.Text == text {
				found = q
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("no answer to %q within %s", text, within)
	}
	return found
}

// While one request's plan is stuck, the chat goes on: a help in another thread is answered
// and an approval of another plan starts its run, both while the stuck plan provably has not
// returned. Before the dispatcher the console's loop waited for the stuck plan, and neither
// happened until it was released.
func TestChatAnswersWhileAPlanIsStuck(t *testing.T) {
	stuck := newGate()
	salt := &slowSalt{plan: map[string]*gate{"jenkins": stuck}}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}})
	t.Cleanup(stuck.open) // before the harness stops, which waits for the bot to be idle

	h.Say("alice", "@eos create grafana")
	preview := h.WaitText(0, "create grafana in local", "React ✅ to approve")
	grafana := eostest.PlanIDRe.FindStringSubmatch(preview.Text)[1]

	h.Say("alice", "@eos create jenkins")
	stuck.arrived(t, "planning jenkins")

	h.Type("/as bob", "@eos help") // not Say: typing blocks when the console's loop waits
	if help := answerTo(t, h, "@eos help", promptly); !strings.Contains(help.Text, "create") {
		t.Errorf("help answered with %q", help.Text)
	}
	h.React("bob", preview.ID, "+1")
	run := h.WaitPost(preview.ID, func(p console.Post) bool { return strings.HasPrefix(p.Text, "Run "+grafana) })
	h.WaitPost(preview.ID, func(p console.Post) bool { return p.ID == run.ID && strings.Contains(p.Text, "done in") })

	// The order is the point: everything above happened while jenkins's plan was held.
	select {
	case <-stuck.release:
		t.Fatal("the stuck plan was released before the test released it")
	default:
	}
	for _, p := range h.Console.Posts() {
		if strings.Contains(p.Text, "create jenkins in local") {
			t.Fatalf("jenkins's preview %q was posted while its plan was stuck", p.Text)
		}
	}
	stuck.open()
	answerTo(t, h, "@eos create jenkins", eostest.Timeout)
	h.Idle()
}
