package intents

import (
	"slices"
	"strings"
)

// Which flag a typed word means is decided here, once, for the parser and for MaskSecrets: the
// parser resolves a flag by its exact name (ignoring case) and, failing that, says "did you
// mean" with nearestFlag; MaskSecrets takes a word for a secret flag when meansFlag says the
// parser would resolve or correct it to one. A spelling the parser understands as a secret
// flag is therefore masked, and there is no second list of spellings to fall behind.

// flagKey is a typed flag name as it compares with a defined one: lowercase, `_` read as `-`.
func flagKey(w string) string {
	return strings.ReplaceAll(strings.ToLower(w), "_", "-")
}

// nearestFlag is the flag among names (lowercase) that word most likely means when it is not
// one of them exactly: the one it equals but for case and `_` for `-` (either way round: a
// blueprint may name a flag db_password), else the one suggest finds (a typo, or the only name
// it is a prefix of); "" when none.
func nearestFlag(word string, names []string) string {
	k := flagKey(word)
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = flagKey(n)
		if k == keys[i] {
			return n
		}
	}
	if s := suggest(k, keys); s != "" {
		return names[slices.Index(keys, s)]
	}
	return ""
}

// meansFlag reports whether the parser would take word, typed as a flag, for the flag name in a
// blueprint whose flags included name: resolved to it, to its negation (`no-NAME`), or
// corrected to either by "did you mean". A blueprint with more flags may suggest another one
// or none; the answer is the same whatever the others, so that a caller who cannot know the
// blueprint (a message that does not parse) errs towards name.
func meansFlag(word, name string) bool {
	if nearestFlag(word, []string{name}) == name {
		return true
	}
	k := flagKey(word)
	return len(k) > 3 && strings.HasPrefix(k, "no-") && nearestFlag(k[3:], []string{name}) == name
}
