package catalog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Constraints narrow what a flag accepts beyond its type. They are checked in one place,
// Flag.Check, which the grammar calls on every typed value (so a refusal in chat names the
// column) and Render calls on every value it binds (so values taken from declared state or set
// by a requires block are held to the same rules).
//
//	min, max  int, port and size flags: inclusive bounds (sizes compare in bytes; a relative
//	          size such as +50G is the amount to grow by, so only max can be checked for it)
//	pattern   string, hostname and path flags: an RE2 regexp the whole value must match; list
//	          flags: each item must
//	values    enum flags: the words allowed
//
// A port is an int within 1–65535; its min and max may narrow that range. Positional
// arguments take the same constraints (Arg.Check); their messages name them NAME.
//
// Under every constraint there is a floor no blueprint can lower (ParseValue): string, path
// and list values are printed text (no control or invisible character, valid UTF-8), and a
// path is absolute and clean. `eos catalog check` wants a pattern (or an enum) on every string,
// path and list argument and flag that is typed in chat (checkBounded), since what reaches a
// layer often becomes part of a file path or a command.

// Port bounds: what a port flag accepts without min or max.
const (
	MinPort = 1
	MaxPort = 65535
)

// bounded reports whether flags of type t may have min and max.
func bounded(t Type) bool { return t == Int || t == Port || t == Size }

// patterned reports whether flags of type t may have a pattern.
func patterned(t Type) bool { return t == String || t == Hostname || t == Path || t == List }

// label is how messages name the flag or argument: --port, or NAME for a positional argument.
func (f *Flag) label() string {
	if f.positional {
		return strings.ToUpper(f.Name)
	}
	return "--" + f.Name
}

// kind is "flag" or "argument", for the messages about a manifest.
func (f *Flag) kind() string {
	if f.positional {
		return "argument"
	}
	return "flag"
}

// maxShown is how many bytes of a refused value a message repeats; the rest is counted.
const maxShown = 48

// shown quotes a refused value for a message: control and non-ASCII characters spelt out
// (a Cyrillic а in "dаta" shows as \u0430), a long value cut with its length.
func shown(s string) string {
	if len(s) <= maxShown+16 {
		return strconv.QuoteToASCII(s)
	}
	cut := s[:maxShown]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	q := strconv.QuoteToASCII(cut)
	return q[:len(q)-1] + "…\" (" + strconv.Itoa(len(s)) + " bytes)"
}

// amount is what min and max compare: the number, or a size in bytes.
func (v Value) amount() int64 {
	if v.Type == Size {
		return v.Bytes
	}
	return v.Int
}

// bounds are the flag's effective inclusive bounds and their text, with a port's own range
// filled in; ok is false for a flag that has none.
func (f *Flag) bounds() (lo, hi int64, loText, hiText string, hasLo, hasHi bool) {
	if f.Type == Port {
		lo, hi, loText, hiText, hasLo, hasHi = MinPort, MaxPort, strconv.Itoa(MinPort), strconv.Itoa(MaxPort), true, true
	}
	if f.Min != nil {
		lo, loText, hasLo = f.Min.amount(), f.Min.Text, true
	}
	if f.Max != nil {
		hi, hiText, hasHi = f.Max.amount(), f.Max.Text, true
	}
	return
}

// Allowed is the flag's range for help and messages: "1–65535", "10G–4T", "at least 1",
// "at most 32"; "" when it has none. Patterns are shown apart (Flag.Pattern).
func (f *Flag) Allowed() string {
	_, _, lo, hi, hasLo, hasHi := f.bounds()
	switch {
	case hasLo && hasHi:
		return lo + "–" + hi
	case hasLo:
		return "at least " + lo
	case hasHi:
		return "at most " + hi
	}
	return ""
}

// Check reports whether v, already of the flag's type, satisfies the flag's constraints. The
// error's text names the flag, the value and what is allowed, for the person who typed it:
//
//	--port 99999 is out of range: ports are 1–65535
//	--storage 5G is out of range: it must be 10G–4T
//	--domain "x.example.com" does not match the pattern [a-z0-9-]+\.example\.org (the whole value must)
//	NAME "../etc" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)
func (f *Flag) Check(v Value) error {
	if f.Type == Enum && len(f.Values) > 0 && !contains(f.Values, v.Text) {
		return fmt.Errorf("%s %s is not one of %s", f.label(), shown(v.Text), strings.Join(f.Values, ", "))
	}
	if f.Min == nil && f.Max == nil && f.Pattern == "" && f.Type != Port {
		return nil
	}
	if bounded(f.Type) && (v.Type == Int || v.Type == Port || v.Type == Size) {
		lo, hi, _, _, hasLo, hasHi := f.bounds()
		n := v.amount()
		switch {
		case v.Relative && hasHi && n > hi:
			// Growing by more than the maximum ends above it, whatever the current size.
			return fmt.Errorf("%s %s is out of range: it grows by more than %s; %s", f.label(), v.Text, f.Max.Text, f.rangeText())
		case v.Relative:
		case hasLo && n < lo, hasHi && n > hi:
			return fmt.Errorf("%s %s is out of range: %s", f.label(), v.Text, f.rangeText())
		}
	}
	if f.Pattern != "" && patterned(f.Type) {
		re, err := compilePattern(f.Pattern)
		if err != nil {
			return fmt.Errorf("%s: the blueprint's pattern does not compile: %v", f.label(), err)
		}
		items := []string{v.Text}
		if v.Type == List && v.List != nil {
			items = v.List
		}
		for _, it := range items {
			if re.MatchString(it) {
				continue
			}
			if len(items) > 1 || v.Type == List {
				return fmt.Errorf("%s item %s does not match the pattern %s (each whole item must)", f.label(), shown(it), f.Pattern)
			}
			return fmt.Errorf("%s %s does not match the pattern %s (the whole value must)", f.label(), shown(it), f.Pattern)
		}
	}
	return nil
}

// rangeText is the end of an out-of-range message: "ports are 1–65535", "it must be 10G–4T".
func (f *Flag) rangeText() string {
	if f.Type == Port && f.Min == nil && f.Max == nil {
		return "ports are " + f.Allowed()
	}
	return "it must be " + f.Allowed()
}

// patterns caches compiled patterns: the grammar checks a value per message typed.
var patterns sync.Map // pattern text → *regexp.Regexp

// compilePattern compiles an author's pattern anchored at both ends: the whole value must
// match, not a part of it.
func compilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	// Compiled alone first: a pattern that compiles has balanced groups, so "a)|(b" cannot
	// escape the anchors.
	if _, err := regexp.Compile(p); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(`^(?:` + p + `)$`)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

// constraints decodes a flag's min, max and pattern, reporting each that its type does not
// take, that does not parse as its type, bounds the wrong way round, a port bound outside
// 1–65535, and a pattern that does not compile.
func (d *decoder) constraints(f *Flag, attrs hcl.Attributes) {
	for _, name := range []string{"min", "max"} {
		a := attrs[name]
		if a == nil || f.Type == "" {
			continue
		}
		if !bounded(f.Type) {
			d.errorf(a.NameRange, "%s is only for int, port and size %ss; %s %q is %s", name, f.kind(), f.kind(), f.Name, f.Type)
			continue
		}
		v, ok := d.bound(a, f)
		if !ok {
			continue
		}
		if name == "min" {
			f.Min = &v
		} else {
			f.Max = &v
		}
	}
	if f.Min != nil && f.Max != nil && f.Min.amount() > f.Max.amount() {
		d.errorf(attrs["min"].Expr.Range(), "%s %q has min %s above its max %s", f.kind(), f.Name, f.Min.Text, f.Max.Text)
		f.Min, f.Max = nil, nil
	}
	a := attrs["pattern"]
	if a == nil || f.Type == "" {
		return
	}
	if !patterned(f.Type) {
		d.errorf(a.NameRange, "pattern is only for string, hostname, path and list values; %s %q is %s", f.kind(), f.Name, f.Type)
		return
	}
	p, ok := d.str(a)
	if !ok {
		return
	}
	if _, err := compilePattern(p); err != nil {
		d.errorf(a.Expr.Range(), "pattern of %s %q is not an RE2 regexp: %v", f.kind(), f.Name, err)
		return
	}
	f.Pattern = p
}

// bound reads a constant min or max as a value of the flag's type: a whole number, or an
// absolute size like "10G".
func (d *decoder) bound(a *hcl.Attribute, f *Flag) (Value, bool) {
	cv, hds := a.Expr.Value(nil)
	if !d.addHCL(hds) {
		return Value{}, false
	}
	text, ok := constText(cv)
	if !ok {
		d.errorf(a.Expr.Range(), "%s of %s %q must be a constant, like %s", a.Name, f.kind(), f.Name, boundExample(f.Type))
		return Value{}, false
	}
	v, err := ParseValue(f.Type, text)
	switch {
	case err != nil:
		d.errorf(a.Expr.Range(), "%s of %s %q does not fit its type %s: %v", a.Name, f.kind(), f.Name, f.Type, err)
		return Value{}, false
	case v.Relative:
		d.errorf(a.Expr.Range(), "%s of %s %q must be an absolute size, like 10G, not %s", a.Name, f.kind(), f.Name, v.Text)
		return Value{}, false
	case f.Type == Port && (v.Int < MinPort || v.Int > MaxPort):
		d.errorf(a.Expr.Range(), "%s of port %s %q must be within %d–%d, not %s", a.Name, f.kind(), f.Name, MinPort, MaxPort, v.Text)
		return Value{}, false
	}
	return v, true
}

func boundExample(t Type) string {
	if t == Size {
		return `"10G"`
	}
	return "1024"
}
