package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// cancelEntries are the audit log's cancel entries about plan id.
func cancelEntries(t *testing.T, h *eostest.Harness, id string) []store.Entry {
	t.Helper()
	got, err := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "cancel" })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// alice edits her request after its preview: the bot asks her to ask again, cancels the plan
// made for the old text (the preview says so) and plans nothing for the new one; an approval
// afterwards starts nothing.
func TestEditedRequestIsNotReplanned(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	request := p.Thread
	h.Edit("alice", request, "@eos create grafana --port 4000")
	answer := h.WaitText(p.ID, "@alice, your request was edited after the preview: ask again")
	if !strings.Contains(answer.Text, "Plan "+id+" was for the request as it read before, so it is cancelled: nothing changed.") || answer.Thread != request {
		t.Errorf("the answer in thread %d (want %d):\n%s", answer.Thread, request, answer.Text)
	}
	waitPreview(t, h, p, "Plan "+id, "cancelled: the request was edited after the preview · nothing changed")

	after := h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitText(after, "Plan "+id+" is cancelled: nothing started.")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a plan for the edited request ran: %+v", runs)
	}
	plans, _ := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true })
	if len(plans) != 1 || plans[0].State != store.PlanCancelled || plans[0].Cancellation == nil || plans[0].Cancellation.Reason != "the request was edited after the preview" {
		t.Fatalf("plans after the edit = %+v; want the one plan, cancelled because of the edit", plans)
	}
	if got := cancelEntries(t, h, id); len(got) != 1 || got[0].User != "alice" || got[0].Text != "cancelled: the request was edited after the preview" {
		t.Errorf("audit cancel entries = %+v, want one naming alice and the edit", got)
	}
}

// An edit that leaves the text as it was (a pin, an attachment, the same words saved again)
// changes nothing: the plan still counts approvals.
func TestUnchangedEditKeepsThePlan(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Edit("alice", p.Thread, "@eos create grafana")
	// The reaction is handled after the edit: both are in the request's conversation.
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "Plan "+id, "1 of 2: @bob ✅")
	h.Idle()
	if got := botReplies(h, p.ID, "edited"); len(got) != 0 {
		t.Errorf("an unchanged edit was answered: %q", got)
	}
	if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanPending || len(pl.Approvals) != 1 {
		t.Fatalf("plan = %+v, %v; want pending with bob's approval", pl, err)
	}
}

// alice deletes her request: its plan is cancelled, the preview says why, the audit log
// records it, and nothing runs.
func TestDeletedRequestCancelsItsPlan(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Delete("alice", p.Thread)
	waitPreview(t, h, p, "Plan "+id, "cancelled: the request was deleted · nothing changed")
	after := h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitText(after, "Plan "+id+" is cancelled: nothing started.")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("the plan of a deleted request ran: %+v", runs)
	}
	if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanCancelled || pl.Cancellation == nil || pl.Cancellation.Reason != "the request was deleted" {
		t.Fatalf("plan = %+v, %v; want cancelled because the request was deleted", pl, err)
	}
	if got := cancelEntries(t, h, id); len(got) != 1 || got[0].Text != "cancelled: the request was deleted" {
		t.Errorf("audit cancel entries = %+v, want one for the deletion", got)
	}
}

// An adapter may tell of one change twice (heard live, then again in a catch-up after a
// reconnection or a restart): the second edit notice finds the plan cancelled already and says
// nothing, and a second deletion notice cancels nothing more.
func TestRepeatedChangeNoticesAnswerOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	alice := adapters.User{ID: "alice", Name: "alice"}

	t.Run("edit", func(t *testing.T) {
		t.Parallel()
		h := eostest.New(t, eostest.Options{})
		p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
		pl, err := h.Store.Plan(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		edit := adapters.Message{Post: pl.Request, Author: alice, Text: "@eos create grafana --port 4000", At: time.Now()}
		h.Engine.HandleEdit(ctx, h.Console, edit)
		h.WaitText(p.ID, "@alice, your request was edited after the preview: ask again")
		h.Engine.HandleEdit(ctx, h.Console, edit)
		// The reaction is handled after the second notice: both are in the request's conversation.
		after := h.Last()
		h.React("bob", p.ID, "+1")
		h.WaitText(after, "Plan "+id+" is cancelled: nothing started.")
		if got := botReplies(h, p.ID, "edited after the preview"); len(got) != 1 {
			t.Errorf("answers to the edit: %q, want one", got)
		}
		if got := cancelEntries(t, h, id); len(got) != 1 {
			t.Errorf("audit cancel entries = %+v, want one", got)
		}
	})

	t.Run("delete", func(t *testing.T) {
		t.Parallel()
		h := eostest.New(t, eostest.Options{})
		p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
		pl, err := h.Store.Plan(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		h.Engine.HandleDelete(ctx, h.Console, pl.Request)
		waitPreview(t, h, p, "Plan "+id, "cancelled: the request was deleted · nothing changed")
		h.Engine.HandleDelete(ctx, h.Console, pl.Request)
		after := h.Last()
		h.React("bob", p.ID, "+1")
		h.WaitText(after, "Plan "+id+" is cancelled: nothing started.")
		if got := cancelEntries(t, h, id); len(got) != 1 {
			t.Errorf("audit cancel entries = %+v, want one", got)
		}
		if got := botReplies(h, p.ID, "deleted"); len(got) != 0 {
			t.Errorf("replies about the deletion: %q, want none (the preview says it)", got)
		}
	})
}
