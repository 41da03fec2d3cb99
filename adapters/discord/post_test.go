package discord

// What the bot posts: replies in threads or referencing the request, edits, reactions, and
// documents too long for one message or refused as a file.

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

func TestReplyStartsAThreadFromTheRequest(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	req := f.AddMessage(textChannel, "501", "<@"+botID+"> create nextcloud")
	reqRef := adapters.PostRef{Platform: "discord", Channel: textChannel, ID: req.ID}

	preview, err := a.Reply(ctx, reqRef, goldenDocs["preview"])
	if err != nil {
		t.Fatal(err)
	}
	want := adapters.PostRef{Platform: "discord", Channel: req.ID, ID: preview.ID, Thread: req.ID}
	if preview != want {
		t.Errorf("preview = %+v, want %+v (a post in the thread named after the request)", preview, want)
	}
	if len(f.Threads) != 1 || f.Threads[0] != textChannel+"/"+req.ID+" Plan 7f3a9c21 · create nextcloud --sso in production · asked by @alice" {
		t.Errorf("threads started = %q, want one from the request named after the heading", f.Threads)
	}
	// A second answer to the request, and an answer to the preview, go to the same thread.
	again, err := a.Reply(ctx, reqRef, adapters.NewDoc(adapters.Text{Text: "again"}))
	if err != nil {
		t.Fatal(err)
	}
	progress, err := a.Reply(ctx, preview, goldenDocs["progress"])
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []adapters.PostRef{again, progress} {
		if ref.Channel != req.ID || ref.Thread != req.ID {
			t.Errorf("later reply = %+v, want it in thread %s", ref, req.ID)
		}
	}
	posted := f.BotMessages()
	if len(posted) != 3 || posted[0].Content != Render(goldenDocs["preview"]) {
		t.Fatalf("posted %d messages, first %q; want 3, the preview first", len(posted), posted[0].Content)
	}
}

func TestReplyInADirectMessageReferencesTheRequest(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	req := f.AddMessage(dmChannel, "501", "help")
	ref, err := a.Reply(context.Background(), adapters.PostRef{Platform: "discord", Channel: dmChannel, ID: req.ID}, goldenDocs["error"])
	if err != nil {
		t.Fatal(err)
	}
	posted := f.BotMessages()
	if ref.Channel != dmChannel || ref.Thread != "" || len(posted) != 1 || posted[0].Reference != req.ID || len(f.Threads) != 0 {
		t.Errorf("DM reply = %+v, posted %+v, threads %q; want a reply to %s in the DM, no thread", ref, posted, f.Threads, req.ID)
	}
}

func TestThreadsOff(t *testing.T) {
	f := newFakeDiscord(t)
	off := false
	a, err := New(Config{Token: fakeToken, APIBase: f.APIBase(), Threads: &off})
	if err != nil {
		t.Fatal(err)
	}
	req := f.AddMessage(textChannel, "501", "<@"+botID+"> status")
	ref, err := a.Reply(context.Background(), adapters.PostRef{Platform: "discord", Channel: textChannel, ID: req.ID}, goldenDocs["progress"])
	if err != nil {
		t.Fatal(err)
	}
	if ref.Channel != textChannel || ref.Thread != "" || len(f.Threads) != 0 || f.BotMessages()[0].Reference != req.ID {
		t.Errorf("with Threads off: reply %+v, threads %q; want a reply in the channel", ref, f.Threads)
	}
}

func TestEditReactAndReadReactions(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	post, err := a.Post(ctx, textChannel, goldenDocs["progress"])
	if err != nil {
		t.Fatal(err)
	}
	done := adapters.NewDoc(adapters.Heading{Text: "Run 7f3a9c21 · done in 41 s"})
	if err := a.Edit(ctx, post, done); err != nil {
		t.Fatal(err)
	}
	if err := a.React(ctx, post, "eyes"); err != nil {
		t.Fatal(err)
	}
	if err := a.React(ctx, post, "no-such-emoji"); err == nil {
		t.Error("React with an unknown name succeeded")
	}
	m := f.Messages[post.ID]
	if m.Content != "**Run 7f3a9c21 · done in 41 s**" || m.Edits != 1 || len(f.BotMessages()) != 1 {
		t.Errorf("after Edit: content %q, %d edits, %d messages; want the new text in place", m.Content, m.Edits, len(f.BotMessages()))
	}
	if got := m.Reactions["👀"]; len(got) != 1 || got[0] != botID {
		t.Errorf("reactions = %v, want 👀 by the bot", m.Reactions)
	}

	f.Mu.Lock()
	m.Reactions["✅"] = []string{"502"}
	m.Reactions["👎"] = []string{"501"}
	f.Mu.Unlock()
	list, err := a.Reactions(ctx, post)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]adapters.User{}
	for _, r := range list {
		if r.Post != post {
			t.Errorf("reaction on %+v, want %+v", r.Post, post)
		}
		got[r.Emoji] = r.User
	}
	if len(list) != 3 || got["white_check_mark"].Name != "bob" || got["-1"].Name != "alice" || !got["eyes"].Bot {
		t.Errorf("Reactions = %+v, want ✅ bob, 👎 alice, 👀 the bot, canonical names", list)
	}
}

func TestOverLongDocSplitsIntoMessages(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	doc := longPlan()
	doc.Attachment = &adapters.Attachment{Name: "plan-7f3a9c21.txt", Text: "resource volume.data-000: + create"}
	ref, err := a.Post(context.Background(), textChannel, doc)
	if err != nil {
		t.Fatal(err)
	}
	posted := f.BotMessages()
	want := split(chunks(doc), maxLength)
	if len(posted) != len(want) || posted[0].ID != ref.ID {
		t.Fatalf("posted %d messages (first %s), want %d with the first returned (%s)", len(posted), posted[0].ID, len(want), ref.ID)
	}
	rows := 0
	for i, m := range posted {
		if n := length(m.Content); n > maxLength {
			t.Errorf("message %d is %d characters long", i, n)
		}
		for _, l := range strings.Split(m.Content, "\n") {
			if strings.HasPrefix(l, "Terraform |") {
				rows++
				if !strings.HasSuffix(l, "✅") {
					t.Errorf("message %d cuts a row: %q", i, l)
				}
			}
		}
	}
	if rows != 120 {
		t.Errorf("messages hold %d rows, want 120", rows)
	}
	if got := posted[0].Files["plan-7f3a9c21.txt"]; got != doc.Attachment.Text || len(posted[1].Files) != 0 {
		t.Errorf("attachment on the first message = %q (files on the second: %v), want the plan text on the first only", got, posted[1].Files)
	}
}

func TestAttachmentRefusedIsPostedAsText(t *testing.T) {
	f := newFakeDiscord(t)
	f.RejectFiles = true
	a := newTestAdapter(t, f)
	doc := goldenDocs["preview"]
	doc.Attachment = &adapters.Attachment{Name: "plan.txt", Text: "resource volume.data: + create"}
	ref, err := a.Post(context.Background(), textChannel, doc)
	if err != nil {
		t.Fatal(err)
	}
	posted := f.BotMessages()
	want := []string{Render(goldenDocs["preview"]), "-# plan.txt\n\n```\nresource volume.data: + create\n```"}
	if len(posted) != 2 || posted[0].ID != ref.ID || posted[0].Content != want[0] || posted[1].Content != want[1] {
		t.Errorf("posted %+v, want the preview then the attachment as text %q", posted, want[1])
	}
}

func TestEditOverLongDocContinuesInFollowUps(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	post, err := a.Post(ctx, textChannel, goldenDocs["progress"])
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Edit(ctx, post, longPlan()); err != nil {
		t.Fatal(err)
	}
	want := split(chunks(longPlan()), maxLength)
	posted := f.BotMessages()
	if len(posted) != len(want) || posted[0].Content != want[0] || posted[0].Edits != 1 || posted[len(posted)-1].Content != want[len(want)-1] {
		t.Errorf("after editing in a long Doc: %d messages, want the first edited and %d follow-ups", len(posted), len(want)-1)
	}
}
