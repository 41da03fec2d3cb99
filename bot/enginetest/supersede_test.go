package enginetest_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/executor"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// Two updates of grafana wait at once, each compiled against port 3000. The port update runs
// first; the domain update, approved after it, plans the same Terraform changes as before (the
// port feeds only Nomad, not configured here), so its hash alone would let it run and record
// port 3000 again, silently undoing the approved port change. The declared state it was compiled
// against changed, so it is superseded and asked again: the new plan keeps port 3002.
func TestAnApprovedPlanDoesNotRevertValuesDeclaredMeanwhile(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	dom, did := eostest.Preview(t, h, "alice", "@eos update grafana --domain a.example.org")
	port, pid := eostest.Preview(t, h, "alice", "@eos update grafana --port 3002")
	h.React("bob", port.ID, "+1")
	h.WaitText(port.ID, "Run "+pid+" · done in")
	h.React("bob", dom.ID, "+1")
	h.WaitText(dom.ID, "Plan "+did+" changed since it was approved", "nothing was applied", "answered again below")
	fresh := h.WaitPost(dom.ID, func(p console.Post) bool {
		return strings.Contains(p.Text, "update grafana --domain a.example.org in local") && !strings.Contains(p.Text, did)
	})
	if !strings.Contains(fresh.Text, "Declared values: --domain default → a.example.org") || strings.Contains(fresh.Text, "--port") {
		t.Errorf("the fresh plan should change the domain only, keeping port 3002:\n%s", fresh.Text)
	}
	h.Idle()
	if _, err := h.Store.Run(context.Background(), did); err == nil {
		t.Fatal("the plan compiled against port 3000 ran after the port changed")
	}
	d, err := h.Store.Declared(context.Background(), "local/grafana")
	if err != nil || d.Spec.Units[0].Values["port"] != "3002" {
		t.Fatalf("grafana's declared state = %+v, %v; want port 3002 kept", d, err)
	}
	old, err := h.Store.Plan(context.Background(), did)
	if err != nil || old.State != store.PlanSuperseded {
		t.Fatalf("the domain plan = %+v, %v; want it superseded", old, err)
	}
}

// Two creates of grafana wait at once. The first runs; the second, approved after it, is not
// planned again as a create of a service that exists now: its request is answered as if asked
// now, which says grafana is deployed and how to change it.
func TestACreateApprovedAfterAnotherCreateIsAskedAgain(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	first, fid := eostest.Preview(t, h, "alice", "@eos create grafana")
	second, sid := eostest.Preview(t, h, "alice", "@eos create grafana --port 3006")
	h.React("bob", first.ID, "+1")
	h.WaitText(first.ID, "Run "+fid+" · done in")
	h.React("bob", second.ID, "+1")
	h.WaitText(second.ID, "Plan "+sid+" changed since it was approved", "nothing was applied")
	h.WaitText(second.ID, "grafana is already deployed in local (run "+fid+"). To change it: @eos update grafana")
	h.Idle()
	if _, err := h.Store.Run(context.Background(), sid); err == nil {
		t.Fatal("the second create ran")
	}
}

// A dependency created meanwhile: nextcloud --sso was compiled to create authentik too; once
// another run has created authentik, the approval names it as what changed, and the request
// asked again uses the deployed authentik instead of creating it a second time.
func TestAPlanWhoseDependencyWasCreatedMeanwhileIsAskedAgain(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	nc, nid := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	au, aid := eostest.Preview(t, h, "alice", "@eos create authentik")
	h.React("bob", au.ID, "+1")
	h.WaitText(au.ID, "Run "+aid+" · done in")
	h.React("bob", nc.ID, "+1")
	h.WaitText(nc.ID, "Plan "+nid+" changed since it was approved (something else changed authentik in local meanwhile)")
	fresh := h.WaitPost(nc.ID, func(p console.Post) bool {
		return strings.Contains(p.Text, "create nextcloud --sso in local") && !strings.Contains(p.Text, nid)
	})
	if !strings.Contains(fresh.Text, "Also brings in authentik (because of --sso): deployed") {
		t.Errorf("the fresh plan should rely on the deployed authentik:\n%s", fresh.Text)
	}
}

// A run that declares grafana between the compile of a request and its plan's storing (here:
// while Eos asks the platform whether alice may request) leaves a plan compiled from the old
// values; its basis records what compile read, so approving it supersedes it rather than
// recording port 3000 over the port 3002 that run declared.
func TestARunFinishingWhileARequestIsCompiledSupersedesItsPlan(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	policy := bot.Policy{Default: bot.EnvPolicy{Requesters: []string{"alice"}, Approvals: 1, Approvers: []string{"bob"}}, Envs: map[string]bot.EnvPolicy{}}
	h := fakeHarness(t, policy, chat)
	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	n := chat.count()
	chat.react(chat.user("bob"), p.Ref, "white_check_mark")
	chat.wait(t, n, "Run "+id+" · done in")
	h.Idle()

	ctx := context.Background()
	chat.mu.Lock()
	chat.onLookup = func() { // after the compile read grafana's declared state, before the plan is stored
		d, err := h.Store.Declared(ctx, "local/grafana")
		if err != nil {
			t.Error(err)
			return
		}
		spec := d.Spec
		spec.Units = []executor.Unit{spec.Units[0]}
		spec.Units[0].Values = maps.Clone(spec.Units[0].Values)
		spec.Units[0].Values["port"] = "3002"
		run := &store.Run{ID: "feedbeef", State: store.RunRunning, Verb: "update", Target: "grafana", Env: "local", Started: time.Now(), Keys: []string{"local/grafana"}}
		if err := h.Store.StartRun(ctx, run); err != nil {
			t.Error(err)
			return
		}
		if _, err := h.Store.FinishRun(ctx, "feedbeef", store.RunDone, nil, time.Now(), &spec); err != nil {
			t.Error(err)
		}
	}
	chat.mu.Unlock()
	up, uid := fakePreview(t, chat, chat.user("alice"), "@eos update grafana --domain a.example.org")
	if d, err := h.Store.Declared(ctx, "local/grafana"); err != nil || d.RunID != "feedbeef" {
		t.Fatalf("grafana's declared state = %+v, %v; want run feedbeef's, declared while the request was compiled", d, err)
	}
	n = chat.count()
	chat.react(chat.user("bob"), up.Ref, "white_check_mark")
	chat.wait(t, n, "Plan "+uid+" changed since it was approved")
	h.Idle()
	if d, err := h.Store.Declared(ctx, "local/grafana"); err != nil || d.Spec.Units[0].Values["port"] != "3002" {
		t.Fatalf("grafana's declared state = %+v, %v; want port 3002 kept", d, err)
	}
}

// A destroy of authentik previewed while nothing needed it, approved after a run declared
// nextcloud with --sso (which needs authentik) without changing authentik (as a blueprint whose
// requirement sets no flag does): the destroy's own changes and authentik's declared state are
// as they were, but the services of local it was compiled against are not. It is superseded and
// asked again, and the answer now is the refusal naming nextcloud, not a run that removes what
// nextcloud signs in with.
func TestADestroyApprovedAfterADependentWasDeclaredIsAskedAgain(t *testing.T) {
	t.Parallel()
	h, de, did := authentikAndItsDestroy(t)
	_, nid := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")

	ctx := context.Background()
	p, err := h.Store.Plan(ctx, nid)
	if err != nil {
		t.Fatal(err)
	}
	spec := p.Plan.Spec
	for _, u := range spec.Units {
		if u.Service == "nextcloud" {
			spec.Units = []executor.Unit{u}
		}
	}
	run := &store.Run{ID: "feedc0de", State: store.RunRunning, Verb: "create", Target: "nextcloud", Env: "local", Started: time.Now(), Keys: []string{"local/nextcloud"}}
	if err := h.Store.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Store.FinishRun(ctx, "feedc0de", store.RunDone, nil, time.Now(), &spec); err != nil {
		t.Fatal(err)
	}
	before, err := h.Store.Declared(ctx, "local/authentik")
	if err != nil {
		t.Fatal(err)
	}
	h.React("bob", de.ID, "+1")
	h.WaitText(de.ID, "Plan "+did+" changed since it was approved (something else changed nextcloud in local meanwhile)")
	h.WaitText(de.ID, "authentik is required by nextcloud in local (for --sso): destroy those first, or add --with-dependents to plan their removal too")
	if d, err := h.Store.Declared(ctx, "local/authentik"); err != nil || d.Destroyed || d.RunID != before.RunID {
		t.Fatalf("authentik's declared state = %+v, %v; want it still deployed by run %s", d, err, before.RunID)
	}
}

// A service created beside a waiting destroy that it does not need changes nothing the destroy
// was compiled from: the destroy runs as approved.
func TestADestroyRunsWhenAnUnrelatedServiceWasCreatedMeanwhile(t *testing.T) {
	t.Parallel()
	h, de, did := authentikAndItsDestroy(t)
	gr, gid := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", gr.ID, "+1")
	h.WaitText(gr.ID, "Run "+gid+" · done in")
	h.React("bob", de.ID, "+1")
	h.WaitText(de.ID, "Run "+did+" · done in")
}

// A destroy of authentik previewed while nothing needed it, approved after a run created
// nextcloud with --sso (which needs authentik, and sets its --frontend-for): authentik's declared
// state changed, so the destroy is superseded and asked again, and the answer now is the refusal
// naming nextcloud, not a run that removes what nextcloud signs in with.
func TestADestroyApprovedAfterADependentWasCreatedIsAskedAgain(t *testing.T) {
	t.Parallel()
	h, de, did := authentikAndItsDestroy(t)
	nc, nid := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	h.React("bob", nc.ID, "+1")
	h.WaitText(nc.ID, "Run "+nid+" · done in")
	h.React("bob", de.ID, "+1")
	h.WaitText(de.ID, "Plan "+did+" changed since it was approved (something else changed authentik in local meanwhile)")
	h.WaitText(de.ID, "authentik is required by nextcloud in local (for --sso): destroy those first, or add --with-dependents to plan their removal too")
	if d, err := h.Store.Declared(context.Background(), "local/authentik"); err != nil || d.Destroyed {
		t.Fatalf("authentik's declared state = %+v, %v; want it still deployed", d, err)
	}
}

// authentikAndItsDestroy is a harness where authentik was created and its destroy previewed,
// waiting for approval: the destroy's preview and plan ID.
func authentikAndItsDestroy(t *testing.T) (*eostest.Harness, console.Post, string) {
	t.Helper()
	h := eostest.New(t, eostest.Options{})
	au, aid := eostest.Preview(t, h, "alice", "@eos create authentik")
	h.React("bob", au.ID, "+1")
	h.WaitText(au.ID, "Run "+aid+" · done in")
	de, did := eostest.Preview(t, h, "alice", "@eos destroy authentik")
	return h, de, did
}
