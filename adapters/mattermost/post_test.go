package mattermost

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

func TestSendLayout(t *testing.T) {
	short := adapters.NewDoc(adapters.Heading{Text: "Plan 1"}, adapters.Text{Text: "ok"})
	withPlan := short
	withPlan.Attachment = &adapters.Attachment{Name: "plan.txt", Text: "+ volume data\n```tricky```"}
	long := longDoc("n1", 900)

	tests := []struct {
		name      string
		doc       adapters.Doc
		uploadErr error
		files     []string // uploaded, in order
		replies   int      // thread replies after the post
		check     func(t *testing.T, main *model.Post, replies []*model.Post)
	}{
		{name: "short doc is one post", doc: short, check: func(t *testing.T, p *model.Post, _ []*model.Post) {
			if p.Message != "#### Plan 1\n\nok" || len(p.FileIds) != 0 {
				t.Errorf("post %q with files %v", p.Message, p.FileIds)
			}
		}},
		{name: "attachment uploaded", doc: withPlan, files: []string{"plan.txt"}, check: func(t *testing.T, p *model.Post, _ []*model.Post) {
			if p.Message != "#### Plan 1\n\nok" || len(p.FileIds) != 1 {
				t.Errorf("post %q with files %v", p.Message, p.FileIds)
			}
		}},
		{name: "attachment falls back to a fenced reply", doc: withPlan, uploadErr: errors.New("uploads disabled"), replies: 1,
			check: func(t *testing.T, p *model.Post, r []*model.Post) {
				if !strings.HasSuffix(p.Message, "_Continued in the thread: plan.txt._") {
					t.Errorf("post %q does not point at the thread", p.Message)
				}
				if r[0].Message != "````\n+ volume data\n```tricky```\n````" {
					t.Errorf("reply %q", r[0].Message)
				}
			}},
		{name: "long doc keeps summary and attaches the rest", doc: long, files: []string{overflowName},
			check: func(t *testing.T, p *model.Post, _ []*model.Post) {
				want := "#### Plan n1 · create nextcloud\n\nNeeds 1 approval from @bob\n\n" +
					"_Too long for one post: the full text is attached as " + overflowName + "._"
				if p.Message != want || len(p.FileIds) != 1 {
					t.Errorf("post %q with files %v, want %q", p.Message, p.FileIds, want)
				}
			}},
		{name: "long doc falls back to thread replies", doc: long, uploadErr: errors.New("too large"), replies: 4,
			check: func(t *testing.T, p *model.Post, r []*model.Post) {
				var all strings.Builder
				for i, x := range r {
					if n := utf8.RuneCountInString(x.Message); n > maxRunes {
						t.Errorf("reply %d has %d runes", i, n)
					}
					all.WriteString(x.Message + "\n")
				}
				if got := strings.Count(all.String(), "| Terraform |"); got != 900 {
					t.Errorf("replies hold %d table rows, want 900", got)
				}
				if !strings.Contains(p.Message, "Continued in the thread: "+overflowName) {
					t.Errorf("post %q does not point at the thread", p.Message)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(botUser)
			f.uploadErr = tt.uploadErr
			a := fakeAdapter(t, f)
			parent := adapters.PostRef{Platform: platform, Channel: "c1", ID: "req1"}
			ref, err := a.Reply(context.Background(), parent, tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if ref != (adapters.PostRef{Platform: platform, Channel: "c1", ID: "post1", Thread: "req1"}) {
				t.Errorf("Reply returned %+v", ref)
			}
			if strings.Join(f.uploads, ",") != strings.Join(tt.files, ",") {
				t.Errorf("uploaded %v, want %v", f.uploads, tt.files)
			}
			if len(f.posts) != 1+tt.replies {
				t.Fatalf("created %d posts, want 1 + %d replies", len(f.posts), tt.replies)
			}
			for _, p := range f.posts {
				if p.RootId != "req1" || p.ChannelId != "c1" {
					t.Errorf("post %s in channel %q thread %q, want c1 thread req1", p.Id, p.ChannelId, p.RootId)
				}
				if n := utf8.RuneCountInString(p.Message); n > maxRunes {
					t.Errorf("post %s has %d runes, limit %d", p.Id, n, maxRunes)
				}
			}
			tt.check(t, f.posts[0], f.posts[1:])
		})
	}
}

func TestEditSendsFilesToTheThread(t *testing.T) {
	tests := []struct {
		name      string
		uploadErr error
		check     func(t *testing.T, replies []*model.Post)
	}{
		{"uploaded", nil, func(t *testing.T, r []*model.Post) {
			if len(r) != 1 || len(r[0].FileIds) != 1 {
				t.Errorf("replies %d, want one carrying the file", len(r))
			}
		}},
		{"upload fails", errors.New("no"), func(t *testing.T, r []*model.Post) {
			if len(r) != 4 || len(r[0].FileIds) != 0 {
				t.Errorf("replies %d, want the text split in 4", len(r))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(botUser)
			f.uploadErr = tt.uploadErr
			a := fakeAdapter(t, f)
			post := adapters.PostRef{Platform: platform, Channel: "c1", ID: "p9", Thread: "root"}
			if err := a.Edit(context.Background(), post, longDoc("n2", 900)); err != nil {
				t.Fatal(err)
			}
			patch := f.patched["p9"]
			want := "#### Plan n2 · create nextcloud\n\nNeeds 1 approval from @bob\n\n_Continued in the thread: " + overflowName + "._"
			if patch == nil || *patch.Message != want || patch.FileIds != nil {
				t.Fatalf("patch %+v, want message %q and no files", patch, want)
			}
			for _, p := range f.posts {
				if p.RootId != "root" {
					t.Errorf("reply in thread %q, want root", p.RootId)
				}
			}
			tt.check(t, f.posts)
		})
	}
}

func TestConfigLogValueHidesToken(t *testing.T) {
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("starting", "cfg", Config{URL: "https://chat", Token: "s3cr3t-token"})
	if strings.Contains(buf.String(), "s3cr3t") || !strings.Contains(buf.String(), "https://chat") {
		t.Errorf("logged %q", buf.String())
	}
}
