package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
	"github.com/slack-go/slack/slacktest"
)

// blockTexts returns the text of each recorded block.
func blockTexts(t *testing.T, blocks []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, raw := range blocks {
		var b struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
			Elements []struct {
				Text string `json:"text"`
			} `json:"elements"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		text := b.Text.Text
		for _, e := range b.Elements {
			text += e.Text
		}
		out = append(out, text)
	}
	return out
}

func TestPostReplyEditReact(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	ctx := context.Background()
	request := adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000100"}
	inThread := adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000300", Thread: "1700000000.000100"}

	digest, err := r.Post(ctx, "#infra", adapters.NewDoc(adapters.Heading{Text: "Drift · all 41 services match"}))
	if err != nil {
		t.Fatal(err)
	}
	preview, err := r.Reply(ctx, request, adapters.NewDoc(adapters.Heading{Text: "Plan 7f3a9c21"}))
	if err != nil {
		t.Fatal(err)
	}
	progress, err := r.Reply(ctx, inThread, adapters.NewDoc(adapters.Text{Text: "Run 7f3a9c21 · Salt ⏳"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Edit(ctx, progress, adapters.NewDoc(adapters.Text{Text: "Run 7f3a9c21 · done in 41 s"})); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := r.React(ctx, request, "👀"); err != nil {
			t.Fatalf("React: %v", err)
		}
	}
	err = r.Edit(ctx, adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1.2"}, adapters.NewDoc(adapters.Text{Text: "x"}))
	if err == nil || !strings.Contains(err.Error(), "message_not_found") {
		t.Errorf("editing an unknown post: %v, want message_not_found", err)
	}

	posts, updates, reacted := f.Recorded()
	if len(posts) != 3 {
		t.Fatalf("%d posts, want 3", len(posts))
	}
	if digest.Channel != "CINFRA001" || digest.Thread != "" || posts[0].ThreadTS != "" {
		t.Errorf("Post by name: ref %+v, thread_ts %q; want channel CINFRA001 at channel level", digest, posts[0].ThreadTS)
	}
	if posts[1].ThreadTS != request.ID || preview.Thread != request.ID || preview.ID != posts[1].TS {
		t.Errorf("Reply to the request: thread_ts %q, ref %+v; want thread %s", posts[1].ThreadTS, preview, request.ID)
	}
	if posts[2].ThreadTS != inThread.Thread {
		t.Errorf("Reply to a post in a thread: thread_ts %q, want the root %s", posts[2].ThreadTS, inThread.Thread)
	}
	if got := blockTexts(t, posts[1].Blocks); len(got) != 1 || got[0] != "Plan 7f3a9c21" || posts[1].Text != "Plan 7f3a9c21" {
		t.Errorf("preview blocks %q, text %q", got, posts[1].Text)
	}
	if len(updates) != 1 || updates[0].Channel != "CINFRA001" || updates[0].TS != progress.ID {
		t.Fatalf("chat.update calls %+v, want one for %s", updates, progress.ID)
	}
	if got := blockTexts(t, updates[0].Blocks); len(got) != 1 || got[0] != "Run 7f3a9c21 · done in 41 s" {
		t.Errorf("edited blocks %q", got)
	}
	if want := (slackfake.Call{Channel: "CINFRA001", TS: request.ID, Name: "eyes"}); len(reacted) != 1 || reacted[0].Channel != want.Channel || reacted[0].TS != want.TS || reacted[0].Name != want.Name {
		t.Errorf("reactions.add calls %+v, want one %+v", reacted, want)
	}
}

func TestReactionsReadsUsers(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	post := adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000500", Thread: "1700000000.000100"}
	f.Mu.Lock()
	f.Reactions["CINFRA001/1700000000.000500"] = []slackfake.Reaction{
		{Name: "eyes", Count: 1, Users: []string{botID}},
		{Name: "+1::skin-tone-2", Count: 2, Users: []string{"UBO", "UAL"}},
		{Name: "x", Count: 1, Users: []string{"USEC"}},
	}
	f.Mu.Unlock()
	got, err := r.Reactions(context.Background(), post)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, x := range got {
		if x.Post != post {
			t.Errorf("reaction on %+v, want %+v", x.Post, post)
		}
		lines = append(lines, fmt.Sprintf("%s %s bot=%v", x.User.Name, x.Emoji, x.User.Bot))
	}
	want := "eos eyes bot=true|bob +1 bot=false|alice +1 bot=false|secops x bot=false"
	if strings.Join(lines, "|") != want {
		t.Errorf("Reactions = %q, want %q", strings.Join(lines, "|"), want)
	}
}

func TestOverlongReplyContinuesInThread(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	request := adapters.PostRef{Platform: "slack", Channel: "CINFRA001", ID: "1700000000.000100"}
	ref, err := r.Reply(context.Background(), request, longPlan())
	if err != nil {
		t.Fatal(err)
	}
	posts, _, _ := f.Recorded()
	if len(posts) < 2 || ref.ID != posts[0].TS {
		t.Fatalf("%d posts, ref %+v; want the preview first and continuations", len(posts), ref)
	}
	var rows []string
	for i, p := range posts {
		if p.ThreadTS != request.ID {
			t.Errorf("post %d in thread %q, want %s", i, p.ThreadTS, request.ID)
		}
		if len(p.Blocks) > maxBlocks {
			t.Errorf("post %d has %d blocks", i, len(p.Blocks))
		}
		for _, text := range blockTexts(t, p.Blocks) {
			if len([]rune(text)) > maxSectionText {
				t.Errorf("post %d: a block of %d characters", i, len([]rune(text)))
			}
			if !strings.HasPrefix(text, "```\n") {
				continue
			}
			lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(text, "```\n"), "\n```"), "\n")
			if !strings.HasPrefix(lines[0], "layer ") {
				t.Errorf("post %d: table part without its header: %q", i, lines[0])
			}
			rows = append(rows, lines[2:]...)
		}
	}
	if len(rows) != 300 {
		t.Fatalf("%d rows posted, want 300", len(rows))
	}
	for i, row := range rows {
		if !strings.HasPrefix(row, fmt.Sprintf("Terraform | volume data-%03d | ", i)) || !strings.HasSuffix(row, "backup") {
			t.Fatalf("row %d = %q: cut, lost or out of order", i, row)
		}
	}
}

// TestPostOnSlacktest posts through slack-go's own test server, whose chat.postMessage decodes
// the blocks with the library's Block Kit types: the rendering round-trips.
func TestPostOnSlacktest(t *testing.T) {
	s := slacktest.NewTestServer()
	s.Start()
	defer s.Stop()
	a, err := New(Config{AppToken: appToken, BotToken: botToken, APIURL: s.GetAPIURL(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range goldenDocs {
		ref, err := a.Post(context.Background(), "CINFRA001", doc)
		if err != nil {
			t.Fatalf("posting %s: %v", name, err)
		}
		if ref.Platform != "slack" || ref.Channel != "CINFRA001" || ref.ID == "" {
			t.Errorf("posting %s: ref %+v", name, ref)
		}
	}
}
