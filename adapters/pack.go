package adapters

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Chunk is one block of text in the shape Packing.Pack needs to continue it in another
// message: Head opens it (a code fence, a table's header) and is repeated at the top of every
// message it continues in; Tail closes it (the closing fence), in every message it is cut in
// too. A line of Body may hold newlines (a list item, a table's header with its rule): it is
// kept whole in one message, unless it is longer than a message on its own.
type Chunk struct {
	Head []string
	Body []string
	Tail string
}

// Packing is how one platform lays text out in messages: how long one may be, and how the
// platform counts that length. Every adapter cuts its long texts with it.
type Packing struct {
	// Limit is the most one message may hold, as Length counts.
	Limit int
	// Length is the length of a text as the platform counts it: runes (Mattermost, Slack),
	// UTF-16 code units (Discord).
	Length func(string) int
	// Gap puts a blank line between two chunks in one message (blocks of a Doc); without it
	// they follow line after line (markdown that holds its own blank lines).
	Gap bool
	// Trim drops the newlines a message would begin or end with: in markdown posted as it is
	// (Discord, Mattermost) they only separate blocks. Slack's section texts keep theirs.
	Trim bool
}

// Runes counts a text's length in runes, as Mattermost and Slack do.
func Runes(s string) int { return utf8.RuneCountInString(s) }

// UTF16 counts a text's length in UTF-16 code units, as Discord (and JavaScript's
// String.length) does: an emoji outside the Basic Multilingual Plane counts two.
func UTF16(s string) int {
	n := 0
	for _, r := range s {
		n += max(1, utf16.RuneLen(r))
	}
	return n
}

// Pack lays chunks out in messages of at most p.Limit, cutting only between lines of a body:
// a chunk cut in two is closed (Tail) and opened again (Head) in the next message, so a code
// block stays a code block and every table row sits under its header. A chunk that does not
// fit in the message so far starts the next one together with its first line, so no message
// ends with a header alone. Only a line longer than a message on its own is cut inside. A
// message whose body lines are all blank is not sent (a chunk with no body at all, a table
// with no rows, is).
func (p Packing) Pack(chunks []Chunk) []string {
	k := packer{Packing: p}
	for _, c := range chunks {
		k.chunk(c)
	}
	k.flush()
	return k.pieces
}

// packer fills messages line by line.
type packer struct {
	Packing
	pieces  []string
	cur     []string
	n       int  // length of cur joined with newlines
	content bool // cur holds a line of a body that is not blank
}

// cost is what adding lines to the current message takes, separators included.
func (p *packer) cost(lines ...string) int {
	c := 0
	for i, l := range lines {
		if i > 0 || len(p.cur) > 0 {
			c++
		}
		c += p.Length(l)
	}
	return c
}

func (p *packer) add(lines ...string) {
	p.n += p.cost(lines...)
	p.cur = append(p.cur, lines...)
}

// body adds one line of a chunk's body.
func (p *packer) body(l string) {
	p.add(l)
	p.content = p.content || strings.TrimSpace(l) != ""
}

func (p *packer) flush() {
	s := strings.Join(p.cur, "\n")
	if p.Trim {
		s = strings.Trim(s, "\n")
	}
	if s != "" && p.content {
		p.pieces = append(p.pieces, s)
	}
	p.cur, p.n, p.content = nil, 0, false
}

// chunk adds one chunk, after a blank line (with Gap) when the message has something already.
func (p *packer) chunk(c Chunk) {
	reserve := 0
	if c.Tail != "" {
		reserve = 1 + p.Length(c.Tail)
	}
	start := append([]string{}, c.Head...)
	if len(c.Body) > 0 {
		start = append(start, c.Body[0])
	}
	if len(p.cur) > 0 {
		gap := []string{}
		if p.Gap {
			gap = append(gap, "")
		}
		if p.n+p.cost(append(gap, start...)...)+reserve > p.Limit {
			p.flush()
		} else {
			p.add(gap...)
		}
	}
	p.add(c.Head...)
	// A chunk with no body (a table with no rows) shows its frame; otherwise a body line has to.
	p.content = p.content || len(c.Body) == 0
	head := len(p.cur) // lines of the message up to the chunk's body
	for _, l := range c.Body {
		if len(p.cur) > head && p.n+p.cost(l)+reserve > p.Limit {
			p.reopen(c)
			head = len(p.cur)
		}
		whole := l
		for l != "" && p.n+p.cost(l)+reserve > p.Limit {
			// A line too long for any message: cut it, at least one rune per round (so a
			// head and tail wider than a message on their own cannot keep this going).
			part := p.cut(l, p.Limit-reserve-p.n-p.cost(""))
			p.body(part)
			l = l[len(part):]
			p.reopen(c)
			head = len(p.cur)
		}
		if l != "" || whole == "" {
			p.body(l)
		}
	}
	if c.Tail != "" {
		p.add(c.Tail)
	}
}

// reopen closes the chunk in this message and opens it again in the next.
func (p *packer) reopen(c Chunk) {
	if c.Tail != "" {
		p.add(c.Tail)
	}
	p.flush()
	p.add(c.Head...)
}

// cut returns the longest prefix of s whose length is at most n, and at least its first rune.
func (p *packer) cut(s string, n int) string {
	if part := Cut(s, n, p.Length); part != "" {
		return part
	}
	_, size := utf8.DecodeRuneInString(s)
	return s[:size]
}

// Cut returns the longest prefix of s whose length, as length counts it, is at most n; ""
// when n is too small for its first rune.
func Cut(s string, n int, length func(string) int) string {
	total := 0
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if total += length(s[i : i+size]); total > n {
			return s[:i]
		}
		i += size
	}
	return s
}
