package intents

import (
	"strings"
	"unicode/utf8"
)

// suggest returns the candidate closest to word, for "did you mean": the smallest
// Damerau-Levenshtein (optimal string alignment) distance within a small threshold, ties going
// to the earlier candidate; failing that, the only candidate that word is a prefix of (at least
// three characters typed). It returns "" when nothing is close. Comparison ignores case.
func suggest(word string, candidates []string) string {
	w := strings.ToLower(word)
	if w == "" || utf8.RuneCountInString(w) > 64 {
		return ""
	}
	best, bestDist := "", 0
	for _, c := range candidates {
		if c == w {
			continue
		}
		d := editDistance(w, c)
		if d > threshold(w, c) {
			continue
		}
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" || utf8.RuneCountInString(w) < 3 {
		return best
	}
	for _, c := range candidates {
		if c != w && strings.HasPrefix(c, w) {
			if best != "" {
				return "" // ambiguous prefix
			}
			best = c
		}
	}
	return best
}

// threshold is how many edits still count as a typo: one while the longer word is under six
// runes, two from six on.
func threshold(a, b string) int {
	if max(utf8.RuneCountInString(a), utf8.RuneCountInString(b)) >= 6 {
		return 2
	}
	return 1
}

// editDistance is the optimal string alignment distance between a and b over runes:
// insertions, deletions, substitutions and transpositions of adjacent runes each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Suggest is the "did you mean" of the grammar for words it does not check itself, such as
// environment names the engine knows: the candidate closest to word, or "".
func Suggest(word string, candidates []string) string { return suggest(word, candidates) }
