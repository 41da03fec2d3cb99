package discord

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

func TestSplitLongTableKeepsRowsWholeUnderTheirHeader(t *testing.T) {
	doc := longPlan()
	pieces := split(chunks(doc), maxLength)
	if len(pieces) < 3 {
		t.Fatalf("split into %d messages, want at least 3", len(pieces))
	}
	var rows []string
	for i, p := range pieces {
		if n := length(p); n > maxLength {
			t.Errorf("message %d is %d characters long, limit %d", i, n, maxLength)
		}
		if strings.Count(p, "```")%2 != 0 {
			t.Errorf("message %d leaves a code block open:\n%s", i, p)
		}
		lines := strings.Split(p, "\n")
		for j, l := range lines {
			if !strings.HasPrefix(l, "Terraform |") {
				continue
			}
			// Every message with rows shows the header above them, inside the same block.
			if k := strings.Index(p, "layer     | resource"); k < 0 || k > strings.Index(p, l) {
				t.Errorf("message %d: row %d %q has no header above it", i, j, l)
			}
			rows = append(rows, l)
		}
	}
	if len(rows) != 120 {
		t.Fatalf("messages hold %d rows, want 120", len(rows))
	}
	for i, r := range rows {
		if want := fmt.Sprintf("Terraform | volume.data-%03d | + create 100G xfs ✅", i); r != want {
			t.Fatalf("row %d = %q, want %q (rows cut, lost or reordered)", i, r, want)
		}
	}
	if !strings.HasPrefix(pieces[0], "**Plan 7f3a9c21") || !strings.HasSuffix(pieces[len(pieces)-1], "plan 7f3a9c21 full") {
		t.Errorf("heading or footer misplaced: first %.30q, last %q", pieces[0], pieces[len(pieces)-1])
	}
}

func TestSplit(t *testing.T) {
	text := func(lines ...string) chunk { return chunk{body: lines} }
	tests := []struct {
		name   string
		chunks []chunk
		limit  int
		want   []string
	}{
		{"fits", []chunk{text("a", "b")}, 10, []string{"a\nb"}},
		{"blocks separated by a blank line", []chunk{text("a"), text("b")}, 10, []string{"a\n\nb"}},
		{"at line boundaries", []chunk{text("aaa", "bbb", "ccc")}, 7, []string{"aaa\nbbb", "ccc"}},
		{"a block that does not fit starts a message", []chunk{text("aaa"), text("bbb")}, 6, []string{"aaa", "bbb"}},
		{"code block closed and reopened", []chunk{codeChunk("111\n222\n333")}, 11,
			[]string{"```\n111\n```", "```\n222\n```", "```\n333\n```"}},
		{"table header repeated", []chunk{{head: []string{"```", "h", "-"}, body: []string{"1", "2"}, tail: "```"}}, 13,
			[]string{"```\nh\n-\n1\n```", "```\nh\n-\n2\n```"}},
		{"overlong line cut", []chunk{text("abcdefghij")}, 4, []string{"abcd", "efgh", "ij"}},
		{"emoji counted as Discord counts them", []chunk{text("👍👍", "ab")}, 5, []string{"👍👍", "ab"}},
		{"overlong line in a code block cut inside the fence", []chunk{codeChunk("abcdefghij")}, 13,
			[]string{"```\nabcde\n```", "```\nfghij\n```"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := split(tt.chunks, tt.limit)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("split =\n%q\nwant\n%q", got, tt.want)
			}
			for i, p := range got {
				if length(p) > tt.limit {
					t.Errorf("piece %d %q is over the limit %d", i, p, tt.limit)
				}
			}
		})
	}
}

func TestLayout(t *testing.T) {
	huge := adapters.NewDoc(adapters.Heading{Text: "Plan"}, adapters.Code{Text: strings.Repeat("line of output\n", 1000)})
	withFile := adapters.NewDoc(adapters.Heading{Text: "Plan"})
	withFile.Attachment = &adapters.Attachment{Name: "plan.txt", Text: "every resource"}
	tests := []struct {
		name     string
		doc      adapters.Doc
		messages int
		files    []string
	}{
		{"short", goldenDocs["preview"], 1, nil},
		{"long splits into follow-ups", longPlan(), len(split(chunks(longPlan()), maxLength)), nil},
		{"huge attaches the full text", huge, 1, []string{overflowName}},
		{"attachment goes as a file", withFile, 1, []string{"plan.txt"}},
		{"empty has nothing to post", adapters.Doc{}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := layout(tt.doc)
			var names []string
			for _, f := range o.files {
				names = append(names, f.Name)
			}
			if len(o.pieces) != tt.messages || fmt.Sprint(names) != fmt.Sprint(tt.files) {
				t.Errorf("layout = %d messages, files %v; want %d, %v", len(o.pieces), names, tt.messages, tt.files)
			}
			for i, p := range o.pieces {
				if length(p) > maxLength {
					t.Errorf("message %d is %d characters long", i, length(p))
				}
			}
		})
	}
}
