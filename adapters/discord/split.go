package discord

import (
	"strings"
	"unicode/utf16"
)

// maxLength is the most a Discord message may hold. Discord counts UTF-16 code units, the
// same as JavaScript's String.length; length counts the same way.
const maxLength = 2000

// length is the length of s as Discord counts it.
func length(s string) int {
	n := 0
	for _, r := range s {
		n += max(1, utf16.RuneLen(r))
	}
	return n
}

// split lays chunks out in messages of at most limit characters, cutting only at line
// boundaries: a code block or table cut in two is closed and reopened in the next message,
// which repeats the table's header, so no message shows half a row. Only a single line longer
// than a message is cut inside.
func split(cs []chunk, limit int) []string {
	p := packer{limit: limit}
	for _, c := range cs {
		p.block(c)
	}
	p.flush()
	return p.pieces
}

// packer fills messages line by line.
type packer struct {
	limit  int
	pieces []string
	cur    []string
	n      int // length of cur joined with newlines
}

// cost is what adding lines to the current message takes, separators included.
func (p *packer) cost(lines ...string) int {
	c := 0
	for i, l := range lines {
		if i > 0 || len(p.cur) > 0 {
			c++
		}
		c += length(l)
	}
	return c
}

func (p *packer) add(lines ...string) {
	p.n += p.cost(lines...)
	p.cur = append(p.cur, lines...)
}

func (p *packer) flush() {
	if s := strings.Trim(strings.Join(p.cur, "\n"), "\n"); s != "" {
		p.pieces = append(p.pieces, s)
	}
	p.cur, p.n = nil, 0
}

// block adds one chunk, after a blank line when the message has something already.
func (p *packer) block(c chunk) {
	reserve := 0
	if c.tail != "" {
		reserve = 1 + length(c.tail)
	}
	start := append([]string{}, c.head...)
	if len(c.body) > 0 {
		start = append(start, c.body[0])
	}
	if len(p.cur) > 0 {
		if p.n+p.cost(append([]string{""}, start...)...)+reserve > p.limit {
			p.flush()
		} else {
			p.add("")
		}
	}
	p.add(c.head...)
	for _, l := range c.body {
		if len(p.cur) > len(c.head) && p.n+p.cost(l)+reserve > p.limit {
			p.reopen(c)
		}
		for p.n+p.cost(l)+reserve > p.limit {
			// A line too long for any message: cut it, at least one rune per round.
			room := p.limit - reserve - p.n - p.cost("")
			part := cut(l, max(1, room))
			p.add(part)
			l = l[len(part):]
			p.reopen(c)
		}
		p.add(l)
	}
	if c.tail != "" {
		p.add(c.tail)
	}
}

// reopen closes the block in this message and opens it again in the next.
func (p *packer) reopen(c chunk) {
	if c.tail != "" {
		p.add(c.tail)
	}
	p.flush()
	p.add(c.head...)
}

// cut returns the longest prefix of s whose length is at most n.
func cut(s string, n int) string {
	total := 0
	for i, r := range s {
		total += max(1, utf16.RuneLen(r))
		if total > n {
			if i == 0 {
				return s[:len(string(r))]
			}
			return s[:i]
		}
	}
	return s
}
