package discord

import "github.com/eosbot/eos/adapters"

// maxLength is the most a Discord message may hold. Discord counts UTF-16 code units, the
// same as JavaScript's String.length; length counts the same way.
const maxLength = 2000

// length is the length of s as Discord counts it.
func length(s string) int { return adapters.UTF16(s) }

// split lays chunks out in messages of at most limit characters with the adapters' packer:
// blocks apart by a blank line, cut only at line boundaries, a code block or table cut in two
// closed and reopened in the next message, which repeats the table's header.
func split(cs []chunk, limit int) []string {
	out := make([]adapters.Chunk, len(cs))
	for i, c := range cs {
		out[i] = adapters.Chunk{Head: c.head, Body: c.body, Tail: c.tail}
	}
	return adapters.Packing{Limit: limit, Length: length, Gap: true, Trim: true}.Pack(out)
}
