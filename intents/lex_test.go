package intents

import (
	"fmt"
	"strings"
	"testing"
)

// lexAll returns the items of input as "type:val@pos" strings, up to and including EOF or
// the first error.
func lexAll(input string) []string {
	l := newLexer(input, 0)
	var out []string
	for range len(input) + 2 {
		it := l.nextItem()
		out = append(out, fmt.Sprintf("%s:%s@%d", it.typ, it.val, it.pos))
		if it.typ == itemEOF || it.typ == itemError {
			break
		}
	}
	return out
}

func TestLexer(t *testing.T) {
	tests := []struct {
		name, input string
		want        string // items joined by spaces
	}{
		{"empty", "", "EOF:@0"},
		{"blank", " \t\n ", "EOF:@4"},
		{"words", "create nextcloud", "word:create@0 word:nextcloud@7 EOF:@16"},
		{"flag", "--sso", "flag:sso@0 EOF:@5"},
		{"flag value", "--port 3000", "flag:port@0 word:3000@7 EOF:@11"},
		{"flag equals", "--port=3000", "flag:port@0 value:3000@7 EOF:@11"},
		{"empty equals", "--port= x", "flag:port@0 value:@7 word:x@8 EOF:@9"},
		{"equals at end", "--port=", "flag:port@0 value:@7 EOF:@7"},
		{"no flag", "--no-sso", "flag:no-sso@0 EOF:@8"},
		{"list", "--nodes node1,node2", "flag:nodes@0 word:node1,node2@8 EOF:@19"},
		{"size", "+50G", "word:+50G@0 EOF:@4"},
		{"single dash is a word", "-5 -x", "word:-5@0 word:-x@3 EOF:@5"},
		{"em dash flag", "—sso", "flag:sso@0 EOF:@6"},
		{"en dash flag", "–sso x", "flag:sso@0 word:x@7 EOF:@8"},
		{"double quotes", `"two words"`, "string:two words@0 EOF:@11"},
		{"single quotes", `'a \n b'`, `string:a \n b@0 EOF:@8`},
		{"escapes", `"say \"hi\"\\ \n\t"`, "string:say \"hi\"\\ \n\t@0 EOF:@19"},
		{"unknown escape kept", `"C:\q"`, `string:C:\q@0 EOF:@6`},
		{"curly quotes", "“a b”", "string:a b@0 EOF:@9"},
		{"quoted value", `--name="a b" x`, "flag:name@0 value:a b@7 word:x@13 EOF:@14"},
		{"empty quoted value", `--name=""`, "flag:name@0 value:@7 EOF:@9"},
		{"quote inside word", `it's`, "word:it's@0 EOF:@4"},
		{"unicode space separates", "a\u00a0b\u3000c", "word:a@0 word:b@3 word:c@7 EOF:@8"},
		{"emoji word", "🚀 go", "word:🚀@0 word:go@5 EOF:@7"},
		{"nul is a word char", "a\x00b", "word:a\x00b@0 EOF:@3"},

		{"unterminated double", `create "oops`, `word:create@0 error:unterminated quote: " is never closed@7`},
		{"unterminated single", `'oops`, `error:unterminated quote: ' is never closed@0`},
		{"escaped closer", `"a\"`, `error:unterminated quote: " is never closed@0`},
		{"unterminated value", `--x="a`, `flag:x@0 error:unterminated quote: " is never closed@4`},
		{"text after quote", `"a"b`, `error:put a space after the closing quote "@3`},
		{"lone dashes", "-- x", "error:a flag needs a name after the dashes, like --sso@0"},
		{"dashes then equals", "--=x", "error:a flag needs a name after the dashes, like --sso@0"},
		{"error is final", `"x`, `error:unterminated quote: " is never closed@0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(lexAll(tt.input), " ")
			if got != tt.want {
				t.Errorf("lex %q\n got: %s\nwant: %s", tt.input, got, tt.want)
			}
		})
	}
}

func TestLexerKeepsReturningEOF(t *testing.T) {
	for _, input := range []string{"a", `"x`} {
		l := newLexer(input, 0)
		l.nextItem()
		for i := range 3 {
			if it := l.nextItem(); it.typ != itemEOF {
				t.Errorf("%q: item %d after the end is %v, want EOF", input, i, it.typ)
			}
		}
	}
}

func TestLexerStartsAtOffset(t *testing.T) {
	got := strings.Join(func() []string {
		l := newLexer("@eos status", 5)
		var out []string
		for it := l.nextItem(); ; it = l.nextItem() {
			out = append(out, fmt.Sprintf("%s:%s@%d-%d", it.typ, it.val, it.pos, it.end))
			if it.typ == itemEOF {
				return out
			}
		}
	}(), " ")
	if want := "word:status@5-11 EOF:@11-11"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
