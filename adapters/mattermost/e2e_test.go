package mattermost

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

func TestE2EMessagesAddressedToTheBot(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	ctx := context.Background()
	n := nonce()

	s.Alice.Say(t, s.Infra.Id, "", "morning all, nothing for the bot "+n)
	s.OtherBot.Say(t, s.Infra.Id, "", "@eos a bot talking "+n)
	s.Alice.Say(t, s.Infra.Id, "", "mail x@eos.example.org or ping @eosbot "+n)
	if _, err := a.Post(ctx, s.Infra.Id, adapters.NewDoc(adapters.Text{Text: "@eos talking to myself " + n})); err != nil {
		t.Fatal(err)
	}
	sent := s.Alice.Say(t, s.Infra.Id, "", "@eos hello "+n)

	m := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, n) },
		func(m adapters.Message) {
			if strings.Contains(m.Text, n) {
				t.Errorf("delivered %q, which is not addressed to the bot", m.Text)
			}
		})
	want := adapters.Message{
		Post:   adapters.PostRef{Platform: "mattermost", Channel: s.Infra.Id, ID: sent.Id},
		Author: adapters.User{ID: s.Alice.User.Id, Name: "alice"},
		Text:   "@eos hello " + n,
		At:     time.UnixMilli(sent.CreateAt),
	}
	if !m.At.Equal(want.At) {
		t.Errorf("At = %v, want %v", m.At, want.At)
	}
	m.At = want.At
	if m != want {
		t.Errorf("delivered\n%+v\nwant\n%+v", m, want)
	}

	// A direct message needs no mention; a reply in a thread carries its root.
	dm, _, err := s.Bob.Client.CreateDirectChannel(ctx, s.Bob.User.Id, s.Bot.Id)
	if err != nil {
		t.Fatal(err)
	}
	s.Bob.Say(t, dm.Id, "", "status please "+n)
	got := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, "status please "+n) }, nil)
	if !got.Direct || got.Author.Name != "bob" || got.Post.Channel != dm.Id {
		t.Errorf("direct message delivered as %+v", got)
	}
	reply := s.Carol.Say(t, s.Infra.Id, sent.Id, "@EOS. also me "+n)
	got = a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, "also me "+n) }, nil)
	if got.Post.Thread != sent.Id || got.Post.ID != reply.Id || got.Author.Name != "carol" || got.Direct {
		t.Errorf("thread reply delivered as %+v, want thread %s", got, sent.Id)
	}
}

func TestE2EReplyEditReact(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	ctx := context.Background()
	n := nonce()

	s.Alice.Say(t, s.Infra.Id, "", "@eos create nextcloud "+n)
	req := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, n) }, nil)

	if err := a.React(ctx, req.Post, "👀"); err != nil {
		t.Fatal(err)
	}
	preview, err := a.Reply(ctx, req.Post, adapters.NewDoc(adapters.Heading{Text: "Plan " + n}, adapters.Text{Text: "React ✅ to approve"}))
	if err != nil {
		t.Fatal(err)
	}
	if preview.Thread != req.Post.ID || preview.Root() != req.Post.ID {
		t.Errorf("Reply returned %+v, want thread %s", preview, req.Post.ID)
	}
	// A reply to a reply stays in the same thread.
	second, err := a.Reply(ctx, preview, adapters.NewDoc(adapters.Text{Text: "second " + n}))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Post(t, second.ID); p.RootId != req.Post.ID {
		t.Errorf("reply to a reply has root %q, want %q", p.RootId, req.Post.ID)
	}

	if err := a.Edit(ctx, preview, adapters.NewDoc(adapters.Heading{Text: "Run " + n + " · done"})); err != nil {
		t.Fatal(err)
	}
	if p := s.Post(t, preview.ID); p.Message != "#### Run "+n+" · done" || p.RootId != req.Post.ID {
		t.Errorf("after Edit the post reads %q (root %q)", p.Message, p.RootId)
	}

	// bob approves on the preview, then takes it back.
	plusOne := &model.Reaction{UserId: s.Bob.User.Id, PostId: preview.ID, EmojiName: "+1"}
	if _, _, err := s.Bob.Client.SaveReaction(ctx, plusOne); err != nil {
		t.Fatal(err)
	}
	// The bot's own 👀 on the request, added first, must not be delivered.
	notOnRequest := func(r adapters.Reaction) {
		if r.Post.ID == req.Post.ID {
			t.Errorf("the bot's own reaction was delivered: %+v", r)
		}
	}
	added := a.rec.reaction(t, func(r adapters.Reaction) bool { return r.Post.ID == preview.ID }, notOnRequest)
	wantRef := adapters.PostRef{Platform: "mattermost", Channel: s.Infra.Id, ID: preview.ID, Thread: req.Post.ID}
	if added.Emoji != "+1" || added.User.Name != "bob" || added.User.ID != s.Bob.User.Id || added.Removed || added.Post != wantRef {
		t.Errorf("reaction delivered as %+v, want +1 by bob on %+v", added, wantRef)
	}
	if vote := adapters.VoteOf(added.Emoji); vote != adapters.Approve {
		t.Errorf("VoteOf(%q) = %v, want Approve", added.Emoji, vote)
	}

	list, err := a.Reactions(ctx, preview)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Emoji != "+1" || list[0].User.Name != "bob" || list[0].Post != preview {
		t.Errorf("Reactions(preview) = %+v, want bob's +1", list)
	}
	list, err = a.Reactions(ctx, req.Post)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Emoji != "eyes" || list[0].User.Name != "eos" || !list[0].User.Bot {
		t.Errorf("Reactions(request) = %+v, want the bot's eyes", list)
	}

	if _, err := s.Bob.Client.DeleteReaction(ctx, plusOne); err != nil {
		t.Fatal(err)
	}
	removed := a.rec.reaction(t, func(r adapters.Reaction) bool { return r.Post.ID == preview.ID }, notOnRequest)
	if !removed.Removed || removed.Emoji != "+1" || removed.User.Name != "bob" {
		t.Errorf("removal delivered as %+v", removed)
	}
}

func TestE2ELongDocGoesAsAttachment(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	ctx := context.Background()
	n := nonce()

	doc := longDoc(n, 900)
	doc.Attachment = &adapters.Attachment{Name: "plan-" + n + ".txt", Text: "resource list " + n}
	ref, err := a.Post(ctx, s.Infra.Id, doc)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Post(t, ref.ID)
	if utf8.RuneCountInString(p.Message) > maxRunes || !strings.HasPrefix(p.Message, "#### Plan "+n) ||
		strings.Contains(p.Message, "| layer |") || !strings.Contains(p.Message, "attached as "+overflowName) {
		t.Errorf("long post reads (%d runes):\n%.300s", utf8.RuneCountInString(p.Message), p.Message)
	}
	files := map[string]string{}
	for _, id := range p.FileIds {
		info, _, err := s.Admin.GetFileInfo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := s.Admin.GetFile(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		files[info.Name] = string(data)
	}
	if files[overflowName] != Render(doc) || files["plan-"+n+".txt"] != "resource list "+n || len(files) != 2 {
		t.Errorf("attached files %v (%d), want the full rendering and the plan", keys(files), len(files))
	}

	// Editing in a doc that is too long: the server cannot replace a post's files, so the new
	// full text arrives as a file in the thread.
	edited := longDoc(n+"-v2", 901)
	if err := a.Edit(ctx, ref, edited); err != nil {
		t.Fatal(err)
	}
	p = s.Post(t, ref.ID)
	if !strings.HasPrefix(p.Message, "#### Plan "+n+"-v2") || !strings.Contains(p.Message, "Continued in the thread") {
		t.Errorf("edited post reads %.80q…", p.Message)
	}
	thread, _, err := s.Admin.GetPostThread(ctx, ref.ID, "", false)
	if err != nil {
		t.Fatal(err)
	}
	var newest *model.Post
	for _, x := range thread.Posts {
		if x.Id != ref.ID && (newest == nil || x.CreateAt > newest.CreateAt) {
			newest = x
		}
	}
	if newest == nil || len(newest.FileIds) != 1 {
		t.Fatalf("no reply with the new full text in the thread: %+v", newest)
	}
	if data, _, err := s.Admin.GetFile(ctx, newest.FileIds[0]); err != nil || string(data) != Render(edited) {
		t.Errorf("edited attachment: err %v, %d bytes, want the new rendering (%d bytes)", err, len(data), len(Render(edited)))
	}
}

func TestE2EReconnectsAfterTheConnectionDrops(t *testing.T) {
	s := realServer(t)
	waiting, release := make(chan struct{}), make(chan struct{})
	a := s.start(t, func(_ *Config, a *Adapter) {
		a.pause = func(ctx context.Context, _ time.Duration) bool {
			waiting <- struct{}{}
			select {
			case <-release:
				return true
			case <-ctx.Done():
				return false
			}
		}
	})
	n := nonce()
	s.Alice.Say(t, s.Infra.Id, "", "@eos before "+n)
	a.rec.message(t, func(m adapters.Message) bool { return m.Text == "@eos before "+n }, nil)
	if err := a.Connected(); err != nil {
		t.Fatalf("Connected() while connected = %v", err)
	}

	if !a.dropConnection() {
		t.Fatal("no live connection to drop")
	}
	select {
	case <-waiting:
	case <-time.After(waitFor):
		t.Fatal("the adapter did not notice the dropped connection")
	}
	if err := a.Connected(); err == nil || !strings.HasPrefix(err.Error(), "reconnecting: websocket closed") {
		t.Errorf("Connected() while waiting to reconnect = %v, want reconnecting: websocket closed…", err)
	}
	// Written while the bot is away: delivered by the catch-up after reconnecting.
	s.Alice.Say(t, s.Infra.Id, "", "@eos while away "+n)
	close(release)
	a.waitConnected(t)
	if err := a.Connected(); err != nil {
		t.Errorf("Connected() after reconnecting = %v", err)
	}
	s.Alice.Say(t, s.Infra.Id, "", "@eos after "+n)

	var texts []string
	for len(texts) < 2 {
		m := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, n) }, nil)
		texts = append(texts, m.Text)
	}
	if want := []string{"@eos while away " + n, "@eos after " + n}; !slices.Equal(texts, want) {
		t.Errorf("delivered %q, want %q (each once, in order)", texts, want)
	}
}

// A post written after Run started but before the websocket is up (the bot is starting, the
// server is slow to answer) is delivered by the catch-up on the first connection.
func TestE2EPostsBeforeTheFirstConnectionAreDelivered(t *testing.T) {
	s := realServer(t)
	waiting, release := make(chan struct{}, 1), make(chan struct{})
	a := s.run(t, func(_ *Config, a *Adapter) {
		wsURL := a.wsURL
		a.wsURL = "ws://127.0.0.1:1" // refused: the first connection fails
		a.pause = func(ctx context.Context, _ time.Duration) bool {
			select {
			case waiting <- struct{}{}:
			default:
			}
			select {
			case <-release:
				a.wsURL = wsURL
				return true
			case <-ctx.Done():
				return false
			}
		}
	})
	select {
	case <-waiting:
	case <-time.After(waitFor):
		t.Fatal("the first connection did not fail")
	}
	if err := a.Connected(); err == nil || !strings.HasPrefix(err.Error(), "connecting: opening the websocket") {
		t.Errorf("Connected() after a failed first attempt = %v, want connecting: opening the websocket…", err)
	}
	n := nonce()
	s.Alice.Say(t, s.Infra.Id, "", "@eos early "+n)
	close(release)
	a.waitConnected(t)
	a.rec.message(t, func(m adapters.Message) bool { return m.Text == "@eos early "+n }, nil)
}

func TestE2EReconnectsAfterServerRestart(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	n := nonce()
	s.Alice.Say(t, s.Infra.Id, "", "@eos create grafana "+n)
	req := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, n) }, nil)

	s.Restart(t)
	a.waitConnected(t)
	s.Alice.Say(t, s.Infra.Id, req.Post.ID, "@eos are you back? "+n)
	m := a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, "back? "+n) }, nil)
	if m.Post.Thread != req.Post.ID || m.Author.Name != "alice" {
		t.Errorf("after the restart delivered %+v", m)
	}
	if _, err := a.Reply(context.Background(), m.Post, adapters.NewDoc(adapters.Text{Text: "yes"})); err != nil {
		t.Errorf("replying after the restart: %v", err)
	}
}

// longDoc is a preview whose table alone is far over the post limit.
func longDoc(n string, rows int) adapters.Doc {
	t := adapters.Table{Header: []string{"layer", "resource", "change"}}
	for i := range rows {
		t.Rows = append(t.Rows, []string{"Terraform", "volume data-" + strings.Repeat("x", 10) + string(rune('a'+i%26)), "create | 100G"})
	}
	return adapters.NewDoc(
		adapters.Heading{Text: "Plan " + n + " · create nextcloud"},
		adapters.Text{Text: "Needs 1 approval from @bob"},
		t,
		adapters.Context{Text: "React ✅ to approve, ❌ to reject"},
	)
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
