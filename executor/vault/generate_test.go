package vault

import (
	"strings"
	"testing"
)

func TestGenerateUsesOnlyTheAlphabet(t *testing.T) {
	for _, n := range []int{16, 32, 100} {
		v := generate(n)
		if len(v) != n {
			t.Errorf("generate(%d) has length %d", n, len(v))
		}
		if i := strings.IndexFunc(v, func(r rune) bool { return !strings.ContainsRune(alphabet, r) }); i >= 0 {
			t.Errorf("generate(%d) = %q has %q outside the alphabet", n, v, v[i])
		}
	}
	if strings.ContainsAny(alphabet, "0Oo1lI") {
		t.Errorf("alphabet %q has an ambiguous character", alphabet)
	}
}

// TestGenerateIsUniform draws enough characters that every letter of the alphabet appears
// close to equally often; a modulo bias or a stuck generator would show.
func TestGenerateIsUniform(t *testing.T) {
	const n = 56 * 2000
	counts := map[rune]int{}
	for _, r := range generate(n) {
		counts[r]++
	}
	if len(counts) != len(alphabet) {
		t.Fatalf("%d distinct characters, want %d", len(counts), len(alphabet))
	}
	for r, c := range counts {
		if c < 1700 || c > 2300 {
			t.Errorf("%q appeared %d times, want about 2000", r, c)
		}
	}
	if generate(32) == generate(32) {
		t.Error("two generated secrets are equal")
	}
}
