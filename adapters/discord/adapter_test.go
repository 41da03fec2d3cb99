package discord

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

// recorder is a Handler that keeps what it hears.
type recorder struct {
	msgs   chan adapters.Message
	reacts chan adapters.Reaction
}

func newRecorder() *recorder {
	return &recorder{msgs: make(chan adapters.Message, 32), reacts: make(chan adapters.Reaction, 32)}
}

func (r *recorder) HandleMessage(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.msgs <- m
}

func (r *recorder) HandleReaction(_ context.Context, _ adapters.Adapter, x adapters.Reaction) {
	r.reacts <- x
}

func (r *recorder) nextMessage(t *testing.T) adapters.Message {
	t.Helper()
	select {
	case m := <-r.msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message delivered within 10 s")
		return adapters.Message{}
	}
}

func (r *recorder) nextReaction(t *testing.T) adapters.Reaction {
	t.Helper()
	select {
	case x := <-r.reacts:
		return x
	case <-time.After(10 * time.Second):
		t.Fatal("no reaction delivered within 10 s")
		return adapters.Reaction{}
	}
}

type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func newTestAdapter(t *testing.T, f *discordfake.Fake, channels ...string) *Adapter {
	t.Helper()
	a, err := New(Config{
		Token: fakeToken, APIBase: f.APIBase(), Channels: channels,
		Logger: slog.New(slog.NewTextHandler(logWriter{t}, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// running starts Run against f and waits for the first identify; Run must end with nil
// when the test is over.
func running(t *testing.T, f *discordfake.Fake) (*Adapter, *recorder) {
	t.Helper()
	a, rec := newTestAdapter(t, f), newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, rec) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v after cancel, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return within 10 s of cancel")
		}
	})
	if h := f.WaitHandshake(); h != "identify" {
		t.Fatalf("first gateway handshake = %s, want identify", h)
	}
	return a, rec
}

func TestMessagesAddressedToTheBot(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	tests := []struct {
		name    string
		channel string
		author  string
		content string
		want    string // delivered Text; "" means ignored
		direct  bool
	}{
		{"mention at the start", textChannel, "501", "<@" + botID + "> create nextcloud --sso", "@eos create nextcloud --sso", false},
		{"nickname mention", textChannel, "502", "  <@!" + botID + ">   status nextcloud", "@eos status nextcloud", false},
		{"unaddressed", textChannel, "501", "lunch?", "", false},
		{"mention later in the text", textChannel, "501", "thanks <@" + botID + ">", "", false},
		{"own message", textChannel, botID, "<@" + botID + "> create x", "", false},
		{"another bot", textChannel, "503", "<@" + botID + "> create x", "", false},
		{"direct message", dmChannel, "501", "help create", "help create", true},
		{"direct message with a mention", dmChannel, "502", "<@" + botID + "> help", "@eos help", true},
	}
	// Events are delivered in order, so an ignored message is proven ignored when the next
	// addressed one arrives first. The sentinel ends the list.
	sentinel := f.AddMessage(textChannel, "502", "<@"+botID+"> sentinel")
	for _, tt := range tests {
		m := f.AddMessage(tt.channel, tt.author, tt.content)
		f.MessageCreate(m)
		if tt.want == "" {
			continue
		}
		got := rec.nextMessage(t)
		wantAuthor := f.Users[tt.author].Name
		if got.Text != tt.want || got.Direct != tt.direct || got.Author.Name != wantAuthor || got.Author.ID != tt.author ||
			got.Post != (adapters.PostRef{Platform: "discord", Channel: tt.channel, ID: m.ID}) || got.At.IsZero() {
			t.Errorf("%s: delivered %+v, want text %q direct %v author %s on %s/%s", tt.name, got, tt.want, tt.direct, wantAuthor, tt.channel, m.ID)
		}
	}
	f.MessageCreate(sentinel)
	if got := rec.nextMessage(t); got.Text != "@eos sentinel" {
		t.Errorf("delivered %q where the sentinel was expected: an ignored message got through", got.Text)
	}
}

func TestMessageInAThreadAnswersThere(t *testing.T) {
	f := newFakeDiscord(t)
	f.Channels["250"] = &discordfake.Channel{ID: "250", Guild: guildID, Parent: textChannel, Type: 11}
	_, rec := running(t, f)
	m := f.AddMessage("250", "501", "<@"+botID+"> status")
	f.MessageCreate(m)
	got := rec.nextMessage(t)
	if got.Post.Thread != "250" || got.Post.Channel != "250" {
		t.Errorf("message in a thread delivered as %+v, want Channel and Thread 250", got.Post)
	}
}

func TestServedChannelsOnly(t *testing.T) {
	f := newFakeDiscord(t)
	f.Channels["201"] = &discordfake.Channel{ID: "201", Guild: guildID, Type: 0}
	f.Channels["250"] = &discordfake.Channel{ID: "250", Guild: guildID, Parent: textChannel, Type: 11}
	a, rec := newTestAdapter(t, f, textChannel), newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := a.identity(ctx); err != nil {
		t.Fatal(err)
	}
	self := a.self
	for _, tc := range []struct {
		channel string
		served  bool
	}{{"201", false}, {dmChannel, false}, {"250", true}, {textChannel, true}} {
		m := f.AddMessage(tc.channel, "501", "<@"+botID+"> status")
		f.Mu.Lock()
		msg := f.MessageJSON(m)
		f.Mu.Unlock()
		dm := decodeMessage(t, msg)
		if err := a.onMessage(ctx, rec, self, dm); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-rec.msgs:
			if !tc.served {
				t.Errorf("message in channel %s delivered, but only %s is served", tc.channel, textChannel)
			} else if got.Post.Channel != tc.channel {
				t.Errorf("delivered %+v, want channel %s", got.Post, tc.channel)
			}
		default:
			if tc.served {
				t.Errorf("message in served channel %s not delivered", tc.channel)
			}
		}
	}
}

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
	if len(f.Threads) != 1 || f.Threads[0] != textChannel+"/"+req.ID+" Plan 7f3a9c21 · create nextcloud in production · asked by @alice" {
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

func TestReactionsArriveCanonicalised(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	preview := f.AddMessage(textChannel, botID, "Plan")
	dm := f.AddMessage(dmChannel, botID, "Plan")
	f.Reaction(preview, botID, "👀", false) // the bot's own: ignored
	tests := []struct {
		msg     *discordfake.Message
		user    string
		emoji   string
		removed bool
		want    string
	}{
		{preview, "502", "👍", false, "+1"},
		{preview, "502", "✅", false, "white_check_mark"},
		{preview, "501", "❌", false, "x"},
		{preview, "501", "👎", false, "-1"},
		{preview, "502", "✅", true, "white_check_mark"},
		{dm, "501", "✅", false, "white_check_mark"}, // no member in a DM: the name is looked up
	}
	for _, tt := range tests {
		f.Reaction(tt.msg, tt.user, tt.emoji, tt.removed)
		got := rec.nextReaction(t)
		want := adapters.Reaction{
			Post:  adapters.PostRef{Platform: "discord", Channel: tt.msg.Channel, ID: tt.msg.ID},
			User:  adapters.User{ID: tt.user, Name: f.Users[tt.user].Name},
			Emoji: tt.want, Removed: tt.removed, At: got.At,
		}
		if got != want || got.At.IsZero() {
			t.Errorf("%s by %s (removed %v) delivered as %+v, want %+v", tt.emoji, tt.user, tt.removed, got, want)
		}
	}
}

// TestApprovalSurvivesGatewayLoss drops the socket, reacts while the bot is away and after
// it is back: the session is resumed (not identified anew) and both reactions arrive, in order.
func TestApprovalSurvivesGatewayLoss(t *testing.T) {
	f := newFakeDiscord(t)
	_, rec := running(t, f)
	preview := f.AddMessage(textChannel, botID, "Plan")
	f.Reaction(preview, "501", "👀", false)
	if got := rec.nextReaction(t); got.Emoji != "eyes" {
		t.Fatalf("before the drop: %+v", got)
	}

	f.Drop()
	f.Reaction(preview, "502", "✅", false) // while the socket is down
	if h := f.WaitHandshake(); h != "resume" {
		t.Fatalf("after the drop the client did %s, want resume", h)
	}
	f.Reaction(preview, "502", "👍", false) // after the resume

	for _, want := range []string{"white_check_mark", "+1"} {
		got := rec.nextReaction(t)
		if got.Emoji != want || got.User.Name != "bob" || got.Post.ID != preview.ID {
			t.Errorf("after the drop: delivered %+v, want %s by bob on %s", got, want, preview.ID)
		}
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Identifies != 1 {
		t.Errorf("the client identified %d times, want 1 (a resume, not a new session)", f.Identifies)
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

func TestRunRefusedToken(t *testing.T) {
	f := newFakeDiscord(t)
	a, err := New(Config{Token: "wrong", APIBase: f.APIBase()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = a.Run(ctx, newRecorder())
	if cfgErr := (*configError)(nil); !errors.As(err, &cfgErr) || strings.Contains(err.Error(), "wrong") {
		t.Errorf("Run with a refused token = %v, want a configuration error without the token", err)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"token required", Config{}, false},
		{"channel ids are numbers", Config{Token: "t", Channels: []string{"#infra"}}, false},
		{"API base must be a URL", Config{Token: "t", APIBase: "discord"}, false},
		{"minimal", Config{Token: "Bot t"}, true},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg); (err == nil) != tt.ok {
			t.Errorf("%s: New = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
	if s := slogValue(Config{Token: "secret-token", Channels: []string{"1"}}); strings.Contains(s, "secret-token") {
		t.Errorf("Config logs its token: %s", s)
	}
}

func slogValue(c Config) string {
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "cfg", c)
	return b.String()
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
