package slack

import (
	"strings"

	"github.com/eosbot/eos/adapters"
)

// pack joins units (lines, list items, table rows) with newlines into texts of at most
// maxSectionText characters, each wrapped in open…close and, when head is set, starting with
// head (a table's header, repeated in every text). A text is cut only between units; only a unit
// too long for a text on its own is cut inside.
func pack(units []string, head, open, close string) []string {
	return packLimit(units, head, open, close, maxSectionText)
}

// packLimit packs with the adapters' packer, open and close being the fence of a code block
// ("```\n", "\n```") or nothing.
func packLimit(units []string, head, open, close string, limit int) []string {
	if head != "" && limit-adapters.Runes(open+close+head)-1 < 1 {
		// A header too wide to repeat: keep it only as the first unit.
		units, head = append([]string{head}, units...), ""
	}
	if strings.TrimSpace(strings.Join(units, "\n")) == "" {
		units = nil // nothing to show but the header, if any
	}
	c := adapters.Chunk{Body: units, Tail: strings.TrimPrefix(close, "\n")}
	if open != "" {
		c.Head = []string{strings.TrimSuffix(open, "\n")}
	}
	if head != "" {
		c.Head = append(c.Head, head)
	}
	if len(units) == 0 && head == "" {
		return nil
	}
	return adapters.Packing{Limit: limit, Length: adapters.Runes}.Pack([]adapters.Chunk{c})
}

// cutRunes returns the longest prefix of s with at most n runes.
func cutRunes(s string, n int) string { return adapters.Cut(s, n, adapters.Runes) }
