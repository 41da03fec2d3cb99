package intents

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eosbot/eos/catalog"
)

// parseValue parses the text of a flag or argument of type t. catalog.ParseValue is the
// reference; sizes, hostnames and lists take a fast path here that builds the same Value
// without the reference's allocations (it formats its error message eagerly and lowercases
// unit suffixes on every try). When the fast path refuses a value the reference is asked, so
// error messages come from the catalog. value_test.go checks that the two agree.
func parseValue(t catalog.Type, s string) (catalog.Value, error) {
	var (
		v  catalog.Value
		ok bool
	)
	switch t {
	case catalog.Size:
		v, ok = fastSize(s)
	case catalog.Hostname:
		v, ok = fastHostname(s)
	case catalog.List:
		v, ok = fastList(s)
	default:
		return catalog.ParseValue(t, s)
	}
	if ok {
		return v, nil
	}
	ref, err := catalog.ParseValue(t, s)
	if err != nil || t != catalog.Size {
		return ref, err
	}
	// The reference lets through sizes that are not a positive int64 ("NaNG", "InfT",
	// "99999999T", "0.000001K"); the fast path refuses them and so does Parse.
	return catalog.Value{}, errors.New(strconv.Quote(s) + " is not a size: write a positive number and a unit, like 100G or +50G")
}

// sizeUnits mirrors catalog's table, in the same order: the first suffix that matches decides.
var sizeUnits = []struct {
	suffix string
	lower  string // accepted lowercase spelling, for suffixes of up to two letters
	mult   int64
}{
	{"TiB", "", 1 << 40}, {"GiB", "", 1 << 30}, {"MiB", "", 1 << 20}, {"KiB", "", 1 << 10},
	{"TB", "tb", 1e12}, {"GB", "gb", 1e9}, {"MB", "mb", 1e6}, {"KB", "kb", 1e3},
	{"T", "t", 1 << 40}, {"G", "g", 1 << 30}, {"M", "m", 1 << 20}, {"K", "k", 1 << 10},
}

func fastSize(s string) (catalog.Value, bool) {
	body, rel := strings.CutPrefix(s, "+")
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(body, u.suffix)
		if !ok && u.lower != "" {
			num, ok = strings.CutSuffix(body, u.lower)
		}
		if !ok {
			continue
		}
		if !decimal(num) {
			return catalog.Value{}, false
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || !(f > 0) || f*float64(u.mult) >= math.MaxInt64 || int64(f*float64(u.mult)) <= 0 {
			return catalog.Value{}, false
		}
		return catalog.Value{Type: catalog.Size, Bytes: int64(f * float64(u.mult)), Relative: rel, Text: s}, true
	}
	return catalog.Value{}, false
}

func fastHostname(s string) (catalog.Value, bool) {
	if s == "" || len(s) > 253 {
		return catalog.Value{}, false
	}
	labelStart := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			c := s[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return catalog.Value{}, false
			}
			continue
		}
		label := s[labelStart:i]
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return catalog.Value{}, false
		}
		labelStart = i + 1
	}
	return catalog.StringValue(catalog.Hostname, lowerASCII(s)), true
}

// fastList handles the common list: comma-separated printable ASCII items without blanks,
// which the reference would rebuild into the same text. Anything else goes to the reference,
// which refuses control and invisible characters.
func fastList(s string) (catalog.Value, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return catalog.Value{}, false
		}
	}
	items := splitItems(s, nil)
	if items == nil {
		return catalog.Value{}, false
	}
	return catalog.Value{Type: catalog.List, List: items, Text: s}, true
}

// splitItems splits s at commas into buf (or a new slice when buf is too small). It returns
// nil when an item is empty or has surrounding whitespace.
func splitItems(s string, buf []string) []string {
	n := strings.Count(s, ",") + 1
	items := buf[:0]
	if cap(buf) < n {
		items = make([]string, 0, n)
	}
	for range n {
		var item string
		item, s, _ = strings.Cut(s, ",")
		if item == "" {
			return nil
		}
		first, _ := utf8.DecodeRuneInString(item)
		last, _ := utf8.DecodeLastRuneInString(item)
		if isSpace(first) || isSpace(last) {
			return nil
		}
		items = append(items, item)
	}
	return items
}

// decimal reports whether s is digits with at most one decimal point, the only numbers a
// size may have (no exponents, signs, underscores, NaN or Inf).
func decimal(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return s != "" && s != "."
}
