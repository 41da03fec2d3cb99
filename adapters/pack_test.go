package adapters

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// platformPackings are the three platforms' packings at their real limits, as their adapters
// configure them: Discord 2000 UTF-16 units, blocks apart by a blank line; Mattermost 16383
// runes of markdown; Slack 3000 runes per section, which keeps a section's blank lines.
var platformPackings = []struct {
	name string
	Packing
}{
	{"discord", Packing{Limit: 2000, Length: UTF16, Gap: true, Trim: true}},
	{"mattermost", Packing{Limit: 16383, Length: Runes, Trim: true}},
	{"slack", Packing{Limit: 3000, Length: Runes}},
}

// TestPackAtEachPlatformsLimit protects the one packer every adapter cuts its messages with:
// at each platform's own limit, counted its own way, a message is never longer than the
// platform takes, is cut only between lines, and a code block or table cut in two is closed
// and reopened with its header, so no message shows half a block.
func TestPackAtEachPlatformsLimit(t *testing.T) {
	code := func(lines ...string) Chunk { return Chunk{Head: []string{"```"}, Body: lines, Tail: "```"} }
	for _, pf := range platformPackings {
		lim := pf.Limit
		fill := func(n int) string { return strings.Repeat("x", n) }
		tests := []struct {
			name   string
			chunks []Chunk
			want   []string
		}{
			{"exactly the limit is one message",
				[]Chunk{{Body: []string{fill(lim/2 - 1), fill(lim - lim/2)}}},
				[]string{fill(lim/2-1) + "\n" + fill(lim-lim/2)}},
			{"one more starts a second message at the line boundary",
				[]Chunk{{Body: []string{fill(lim / 2), fill(lim - lim/2)}}},
				[]string{fill(lim / 2), fill(lim - lim/2)}},
			{"a code block cut in two is closed and reopened",
				[]Chunk{code(fill(lim-8), "y")},
				[]string{"```\n" + fill(lim-8) + "\n```", "```\ny\n```"}},
			{"a table's header is repeated above the rows of the next message",
				[]Chunk{{Head: []string{"```", "h", "-"}, Body: []string{fill(lim - 12), "row"}, Tail: "```"}},
				[]string{"```\nh\n-\n" + fill(lim-12) + "\n```", "```\nh\n-\nrow\n```"}},
			{"a line longer than a message is cut inside, and only it",
				[]Chunk{{Body: []string{fill(lim + 3), "z"}}},
				[]string{fill(lim), "xxx\nz"}},
			{"a table that does not fit after text starts the next message with its first row",
				[]Chunk{{Body: []string{fill(lim - 20)}}, {Head: []string{"```", "h", "-"}, Body: []string{fill(20), "r"}, Tail: "```"}},
				[]string{fill(lim - 20), "```\nh\n-\n" + fill(20) + "\nr\n```"}},
			{"a message of blank lines is not sent", []Chunk{{Body: []string{" ", "", "\t"}}}, nil},
			{"a table with no rows is sent", []Chunk{{Head: []string{"```", "h", "-"}, Tail: "```"}}, []string{"```\nh\n-\n```"}},
		}
		for _, tt := range tests {
			t.Run(pf.name+"/"+tt.name, func(t *testing.T) {
				got := pf.Pack(tt.chunks)
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
					t.Errorf("Pack =\n%.300q\nwant\n%.300q", got, tt.want)
				}
				for i, m := range got {
					if n := pf.Length(m); n > lim {
						t.Errorf("message %d is %d long, over the limit %d", i, n, lim)
					}
				}
			})
		}
	}
}

// TestPackCountsAsThePlatformDoes protects the limits where platforms count differently: an
// emoji is one rune for Mattermost and Slack and two UTF-16 units for Discord, and no cut
// ever splits a rune.
func TestPackCountsAsThePlatformDoes(t *testing.T) {
	for _, pf := range platformPackings {
		t.Run(pf.name, func(t *testing.T) {
			emoji := strings.Repeat("👍", pf.Limit)
			got := pf.Pack([]Chunk{{Body: []string{emoji}}})
			perMessage := pf.Limit
			if pf.name == "discord" {
				perMessage = pf.Limit / 2
			}
			if len(got) != pf.Limit/perMessage {
				t.Fatalf("%d emoji packed into %d messages, want %d", pf.Limit, len(got), pf.Limit/perMessage)
			}
			for i, m := range got {
				if !utf8.ValidString(m) || utf8.RuneCountInString(m) != perMessage {
					t.Errorf("message %d holds %d runes (valid UTF-8: %v), want %d", i, utf8.RuneCountInString(m), utf8.ValidString(m), perMessage)
				}
			}
		})
	}
}

// TestPackGapAndTrim protects the two formatting rules that differ between platforms: blocks
// of a Doc apart by a blank line (Discord), and the blank lines at a message's edges dropped
// in markdown (Discord, Mattermost) but kept in a Slack section.
func TestPackGapAndTrim(t *testing.T) {
	chunks := []Chunk{{Body: []string{"", "a"}}, {Body: []string{"b", ""}}}
	for _, tt := range []struct {
		p    Packing
		want string
	}{
		{Packing{Limit: 100, Length: Runes, Gap: true, Trim: true}, "a\n\nb"},
		{Packing{Limit: 100, Length: Runes, Trim: true}, "a\nb"},
		{Packing{Limit: 100, Length: Runes}, "\na\nb\n"},
	} {
		if got := tt.p.Pack(chunks); len(got) != 1 || got[0] != tt.want {
			t.Errorf("Gap %v, Trim %v: Pack = %q, want [%q]", tt.p.Gap, tt.p.Trim, got, tt.want)
		}
	}
}

// A table header wider than a message (a cell as long as a message) must not keep the packer
// cutting forever, as the old Discord and Mattermost packers did: every row is still sent, in
// order, in as many messages (over the limit) as it takes.
func TestPackHeaderWiderThanAMessageEnds(t *testing.T) {
	p := Packing{Limit: 20, Length: Runes, Trim: true}
	wide := strings.Repeat("h", 30)
	done := make(chan []string, 1)
	go func() {
		done <- p.Pack([]Chunk{{Head: []string{"```", wide}, Body: []string{"row1", "row2"}, Tail: "```"}})
	}()
	select {
	case got := <-done:
		var rows string
		for _, m := range got {
			lines := strings.Split(m, "\n")
			rows += strings.Join(lines[2:len(lines)-1], "")
		}
		if rows != "row1row2" {
			t.Errorf("rows %q, want row1row2 in order: %q", rows, got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Pack did not end with a header wider than a message")
	}
}

func TestCut(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 2, "ab"},
		{"abc", 5, "abc"},
		{"é👍a", 2, "é👍"},
		{"abc", 0, ""},
		{"a\xffb", 2, "a\xff"},
	} {
		if got := Cut(tt.s, tt.n, Runes); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
	if got := Cut("a👍b", 2, UTF16); got != "a" {
		t.Errorf("Cut counting UTF-16 = %q, want %q: the emoji takes two units", got, "a")
	}
}
