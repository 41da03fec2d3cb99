package slack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/eosbot/eos/internal/golden"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// longPlan is a preview whose per-resource table is far longer than one section.
func longPlan() adapters.Doc {
	table := adapters.Table{Header: []string{"layer", "resource", "change"}}
	for i := range 300 {
		table.Rows = append(table.Rows, []string{"Terraform", fmt.Sprintf("volume data-%03d", i), "+ create 100G <xfs> & backup"})
	}
	return adapters.NewDoc(
		adapters.Heading{Text: "Plan 5e0c11aa · create storage in production · asked by @alice"},
		table,
		adapters.Context{Text: "Needs 1 approval from @bob · expires 14:32 UTC · React ✅ to approve, ❌ to reject"},
	)
}

// Docs shaped like what the engine posts (see design/CONVERSATION.md).
var goldenDocs = map[string]adapters.Doc{
	"preview": adapters.NewDoc(
		adapters.Heading{Text: "Plan 7f3a9c21 · create nextcloud --sso in production · asked by @alice"},
		adapters.Table{
			Header: []string{"layer", "what changes"},
			Rows: [][]string{
				{"Salt", "node1: 3 states would change (lvm data-nextcloud 100G xfs, …)"},
				{"Terraform", "+3 ~0 −0: server proxy-nextcloud, volume data, dns cloud.example.org"},
				{"Nomad", "job nextcloud: new, groups app ×1, db ×1"},
				{"Vault", "creates 1 secret (admin password), reuses 0 — values never shown"},
			},
		},
		adapters.Text{Text: "Also brings in authentik (because of --sso): planned in the same run.\nNeeds 1 approval from @bob or group ops-approvers, not from @alice · expires 14:32 UTC"},
		adapters.Context{Text: "React ✅ to approve, ❌ to reject · details: @eos plan 7f3a9c21 full"},
	),
	"progress": adapters.NewDoc(
		adapters.Heading{Text: "Run 7f3a9c21 · approved by @bob"},
		adapters.List{Items: []string{"Salt ✅ 3/3", "Terraform ⏳ 2/3 dns cloud.example.org…", "Nomad ⏸"}},
	),
	"digest": adapters.NewDoc(
		adapters.Heading{Text: "Drift · Mon 23 Nov 08:00 UTC · 3 of 41 services drifted"},
		adapters.List{Items: []string{
			"nextcloud (production) · Terraform: server proxy-nextcloud size small → large, changed outside · new",
			"grafana (staging) · Nomad: 1 of 2 allocations failed · drifted since Fri",
			"jenkins (production) · unknown: Salt check timed out after 60 s (not counted as clean)",
		}},
		adapters.Context{Text: "React 🔧 on a line, or @eos reconcile SERVICE, to plan a fix."},
	),
	"error": adapters.NewDoc(
		adapters.Text{Text: `unknown service "nextclod" — did you mean "nextcloud"?`},
		adapters.Code{Text: "create nextclod --sso\n       ^ column 8"},
		adapters.Context{Text: "Services: authentik, grafana, jenkins, nextcloud · @eos help create"},
	),
	"overlong": longPlan(),
}

func TestRenderGolden(t *testing.T) {
	for name, doc := range goldenDocs {
		t.Run(name, func(t *testing.T) {
			msgs := Render(doc)
			checkLimits(t, msgs)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(msgs); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			golden.Check(t, filepath.Join("testdata", name+".golden.json"), got)
		})
	}
}

// checkLimits fails t when a message breaks one of Slack's Block Kit limits.
func checkLimits(t *testing.T, msgs []Message) {
	t.Helper()
	for i, m := range msgs {
		if len(m.Blocks) == 0 || len(m.Blocks) > maxBlocks {
			t.Errorf("message %d has %d blocks, want 1..%d", i, len(m.Blocks), maxBlocks)
		}
		if m.Text == "" || utf8.RuneCountInString(m.Text) > maxFallback {
			t.Errorf("message %d: fallback text has %d runes", i, utf8.RuneCountInString(m.Text))
		}
		for j, b := range m.Blocks {
			n, limit := utf8.RuneCountInString(textOf(b)), maxSectionText
			if _, ok := b.(*slack.HeaderBlock); ok {
				limit = maxHeaderText
			}
			if n == 0 || n > limit {
				t.Errorf("message %d block %d (%s): %d characters, want 1..%d", i, j, b.BlockType(), n, limit)
			}
		}
	}
}

func TestRenderOverlongTableContinuesInThread(t *testing.T) {
	msgs := Render(longPlan())
	if len(msgs) < 2 {
		t.Fatalf("Render gave %d messages, want the post and continuations", len(msgs))
	}
	post := msgs[0].Blocks
	if _, ok := post[0].(*slack.HeaderBlock); !ok {
		t.Errorf("post starts with %s, want the header", post[0].BlockType())
	}
	if got := textOf(post[len(post)-2]); !strings.Contains(got, "React ✅ to approve") {
		t.Errorf("the approval footer is not kept in the post: second to last block %q", got)
	}
	if got := textOf(post[len(post)-1]); !strings.Contains(got, "continued in the thread") {
		t.Errorf("post does not say it continues in the thread: %q", got)
	}
	const head = "layer     | resource        | change"
	var rows []string
	for i, m := range msgs {
		for _, b := range m.Blocks {
			text := textOf(b)
			if !strings.HasPrefix(text, "```\n") {
				continue
			}
			lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(text, "```\n"), "\n```"), "\n")
			if lines[0] != head || !strings.HasPrefix(lines[1], "----------+") {
				t.Errorf("message %d: a table part starts with %q, %q; want the header and its rule", i, lines[0], lines[1])
			}
			rows = append(rows, lines[2:]...)
		}
	}
	if len(rows) != 300 {
		t.Fatalf("the parts hold %d rows, want 300", len(rows))
	}
	for i, r := range rows {
		if want := fmt.Sprintf("Terraform | volume data-%03d | + create 100G &lt;xfs&gt; &amp; backup", i); r != want {
			t.Fatalf("row %d = %q, want %q (a row cut, lost or reordered)", i, r, want)
		}
	}
}

func TestRenderBlockLimits(t *testing.T) {
	many := make([]adapters.Block, 70)
	for i := range many {
		many[i] = adapters.Text{Text: fmt.Sprintf("paragraph %d", i)}
	}
	tests := []struct {
		name      string
		doc       adapters.Doc
		wantMsgs  int
		wantFirst string // text of the post's first block
		wantLast  string // text of the last block of the last message
	}{
		{"more than 50 blocks", adapters.NewDoc(many...), 2, "paragraph 0", "paragraph 69"},
		{"a heading longer than a header block is a bold section, uncut", adapters.NewDoc(adapters.Heading{Text: strings.Repeat("h", 200)}), 1,
			"*" + strings.Repeat("h", 200) + "*", "*" + strings.Repeat("h", 200) + "*"},
		{"a heading within the limit is a header", adapters.NewDoc(adapters.Heading{Text: strings.Repeat("h", maxHeaderText)}), 1,
			strings.Repeat("h", maxHeaderText), strings.Repeat("h", maxHeaderText)},
		{"long code block is closed and reopened", adapters.NewDoc(adapters.Code{Text: strings.Repeat("0123456789\n", 400)}), 2,
			"", "0123456789\n```"},
		{"attachment follows in the thread", adapters.Doc{Blocks: []adapters.Block{adapters.Text{Text: "summary"}},
			Attachment: &adapters.Attachment{Name: "plan.txt", Text: "+ volume data"}}, 2, "summary", "```\n+ volume data\n```"},
		{"a line longer than a section is cut", adapters.NewDoc(adapters.Text{Text: strings.Repeat("x", 7000)}), 2,
			strings.Repeat("x", maxSectionText), strings.Repeat("x", 1000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := Render(tt.doc)
			checkLimits(t, msgs)
			if len(msgs) != tt.wantMsgs {
				t.Fatalf("Render gave %d messages, want %d", len(msgs), tt.wantMsgs)
			}
			if first := textOf(msgs[0].Blocks[0]); tt.wantFirst != "" && first != tt.wantFirst {
				t.Errorf("first block %.80q, want %.80q", first, tt.wantFirst)
			}
			lastMsg := msgs[len(msgs)-1].Blocks
			if last := textOf(lastMsg[len(lastMsg)-1]); !strings.HasSuffix(last, tt.wantLast) {
				t.Errorf("last block ends %.80q, want suffix %.80q", last[max(0, len(last)-80):], tt.wantLast)
			}
		})
	}
}

func TestRenderBlocks(t *testing.T) {
	tests := []struct {
		name  string
		block adapters.Block
		want  []string // texts of the Slack blocks
	}{
		{"heading is one line", adapters.Heading{Text: "Plan\n 7f3a"}, []string{"Plan 7f3a"}},
		{"text is escaped", adapters.Text{Text: "a < b & c > d\nnext"}, []string{"a &lt; b &amp; c &gt; d\nnext"}},
		{"empty text renders nothing", adapters.Text{Text: " \n"}, nil},
		{"list has bullets", adapters.List{Items: []string{"one", "two\nmore"}}, []string{"• one\n• two\n   more"}},
		{"code cannot close its fence", adapters.Code{Text: "a ``` b"}, []string{"```\na `\u200b`` b\n```"}},
		{"table cells stay on one line", adapters.Table{Header: []string{"a", "b"}, Rows: [][]string{{"x\ny", "z"}}},
			[]string{"```\na   | b\n----+--\nx y | z\n```"}},
		{"empty table renders nothing", adapters.Table{}, nil},
		{"context is a context block", adapters.Context{Text: "expires 14:32 UTC"}, []string{"expires 14:32 UTC"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range renderBlock(tt.block) {
				got = append(got, textOf(b))
			}
			if strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") || len(got) != len(tt.want) {
				t.Errorf("renderBlock = %q, want %q", got, tt.want)
			}
		})
	}
}
