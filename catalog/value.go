package catalog

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
)

// Type is the type of a flag or positional argument. The grammar uses it to parse what a person
// typed; the catalog uses it to check defaults and to hand values to templates as typed data.
type Type string

// The types a blueprint may declare.
const (
	Bool     Type = "bool"     // --sso, --no-backup
	Int      Type = "int"      // --executors 4
	Port     Type = "port"     // --port 3000: an int within 1–65535 (checked as a constraint)
	String   Type = "string"   // any text, quoted when it has spaces
	Size     Type = "size"     // 100G, 100GiB, +50G (relative: grow by)
	Duration Type = "duration" // 90s, 10m, 1h30m
	Hostname Type = "hostname" // cloud.example.org
	Path     Type = "path"     // /srv/data
	List     Type = "list"     // node1,node2,node3
	Enum     Type = "enum"     // one of the flag's values
	Service  Type = "service"  // the name of a service in the catalog
)

// Types lists every type, for messages and validation.
var Types = []Type{Bool, Int, Port, String, Size, Duration, Hostname, Path, List, Enum, Service}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// Value is a typed flag or argument value. Only the field for its Type is meaningful; Text is
// always the canonical text form (what help shows and what the preview prints).
type Value struct {
	Type     Type          `json:"type"`
	Text     string        `json:"text"`
	Bool     bool          `json:"-"`
	Int      int64         `json:"-"`
	Bytes    int64         `json:"-"` // Size: the amount in bytes
	Relative bool          `json:"-"` // Size: "+50G" grows by Bytes rather than to Bytes
	Duration time.Duration `json:"-"`
	List     []string      `json:"-"`
}

// BoolValue is a bool Value.
func BoolValue(b bool) Value { return Value{Type: Bool, Bool: b, Text: strconv.FormatBool(b)} }

// StringValue is a Value of a string-like type (string, hostname, path, enum, service).
func StringValue(t Type, s string) Value { return Value{Type: t, Text: s} }

// Cty is the value as handed to blueprint expressions: bool, number, string, or a list of
// strings. Sizes and durations are their canonical text; the functions gib() and seconds()
// convert them to numbers.
func (v Value) Cty() cty.Value {
	switch v.Type {
	case Bool:
		return cty.BoolVal(v.Bool)
	case Int, Port:
		return cty.NumberIntVal(v.Int)
	case List:
		if len(v.List) == 0 {
			return cty.ListValEmpty(cty.String)
		}
		vals := make([]cty.Value, len(v.List))
		for i, s := range v.List {
			vals[i] = cty.StringVal(s)
		}
		return cty.ListVal(vals)
	}
	return cty.StringVal(v.Text)
}

// JSON is the value for a JSON document (the output of `eos parse --json`).
func (v Value) JSON() any {
	switch v.Type {
	case Bool:
		return v.Bool
	case Int, Port:
		return v.Int
	case List:
		if v.List == nil {
			return []string{}
		}
		return v.List
	}
	return v.Text
}

const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
	tib = 1 << 40
)

// sizeUnits are the units a size may have, in the order they are tried: the first suffix that
// matches decides. Units of up to two letters are also accepted in lowercase (lower).
var sizeUnits = []struct {
	suffix, lower string
	mult          int64
}{
	{"TiB", "", tib}, {"GiB", "", gib}, {"MiB", "", mib}, {"KiB", "", kib},
	{"TB", "tb", 1e12}, {"GB", "gb", 1e9}, {"MB", "mb", 1e6}, {"KB", "kb", 1e3},
	{"T", "t", tib}, {"G", "g", gib}, {"M", "m", mib}, {"K", "k", kib},
}

// ParseSize parses "100G", "100GiB", "1.5T", "500GB" or "+50G". Single-letter units are binary,
// as LVM reads them. A bare number is refused: the unit is never guessed. It allocates nothing
// for a size it accepts: the grammar calls it for every size typed.
func ParseSize(s string) (Value, error) {
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
			return Value{}, notASize(s)
		}
		f, err := strconv.ParseFloat(num, 64)
		bytes := f * float64(u.mult)
		if err != nil || !(f > 0) || bytes < 1 || bytes > math.MaxInt64/2 {
			return Value{}, notASize(s)
		}
		return Value{Type: Size, Bytes: int64(bytes), Relative: rel, Text: s}, nil
	}
	return Value{}, fmt.Errorf("%q is not a size: write a number and a unit (K, M, G, T, or GiB, GB, ...), like 100G or +50G", s)
}

func notASize(s string) error {
	return fmt.Errorf("%q is not a size: write a positive number and a unit, like 100G or +50G", s)
}

// ParseDuration parses Go durations ("90s", "1h30m") and whole days ("2d").
func ParseDuration(s string) (Value, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d > 0 {
			return Value{Type: Duration, Duration: time.Duration(d) * 24 * time.Hour, Text: s}, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return Value{}, fmt.Errorf("%q is not a duration: write it like 90s, 10m, 1h30m or 2d", s)
	}
	return Value{Type: Duration, Duration: d, Text: s}, nil
}

// ParseHostname accepts DNS names of letters, digits and hyphens separated by dots, and gives
// them in lowercase. It allocates nothing for a lowercase name it accepts.
func ParseHostname(s string) (Value, error) {
	if s == "" || len(s) > 253 {
		return Value{}, notAHostname(s)
	}
	start, upper := 0, false
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			c := s[i]
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			case c >= 'A' && c <= 'Z':
				upper = true
			default:
				return Value{}, notAHostname(s)
			}
			continue
		}
		label := s[start:i]
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return Value{}, notAHostname(s)
		}
		start = i + 1
	}
	if upper {
		s = strings.ToLower(s)
	}
	return Value{Type: Hostname, Text: s}, nil
}

func notAHostname(s string) error {
	return fmt.Errorf("%q is not a hostname: use letters, digits, hyphens and dots, like cloud.example.org", s)
}

// parseList splits a list at commas, trimming blanks around items and dropping empty ones; its
// text is the items joined again (the typed text itself when nothing was dropped or trimmed).
func parseList(s string) (Value, error) {
	if err := printable(s); err != nil {
		return Value{}, err
	}
	items := strings.Split(s, ",")
	kept, same := items[:0], true
	for _, it := range items {
		t := strings.TrimSpace(it)
		same = same && t == it && t != ""
		if t != "" {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return Value{}, fmt.Errorf("%q is an empty list: separate items with commas, like node1,node2", s)
	}
	text := s
	if !same {
		text = strings.Join(kept, ",")
	}
	return Value{Type: List, List: kept, Text: text}, nil
}

// ParseValue parses the text form of a value of type t. Enum and service values are checked
// against their allowed set by the caller, which knows it.
func ParseValue(t Type, s string) (Value, error) {
	switch t {
	case Bool:
		switch strings.ToLower(s) {
		case "true", "yes", "on", "1":
			return BoolValue(true), nil
		case "false", "no", "off", "0":
			return BoolValue(false), nil
		}
		return Value{}, fmt.Errorf("%q is not true or false", s)
	case Int, Port:
		// A port out of 1–65535 parses: the range is a constraint (Flag.Check), so that a
		// refusal says what is allowed and a stored value out of range is refused by name.
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Value{}, fmt.Errorf("%q is not a whole number", s)
		}
		return Value{Type: t, Int: n, Text: s}, nil
	case Size:
		return ParseSize(s)
	case Duration:
		return ParseDuration(s)
	case Hostname:
		return ParseHostname(s)
	case Path:
		if err := printable(s); err != nil {
			return Value{}, err
		}
		if !strings.HasPrefix(s, "/") {
			return Value{}, fmt.Errorf("%q is not an absolute path: start it with /", s)
		}
		if c := path.Clean(s); c != s {
			return Value{}, fmt.Errorf("%q is not a clean absolute path: write it as %s (no . or .. parts, no double or trailing slash)", s, c)
		}
		return Value{Type: Path, Text: s}, nil
	case List:
		return parseList(s)
	case String, Enum, Service:
		if err := printable(s); err != nil {
			return Value{}, err
		}
		return StringValue(t, s), nil
	}
	return Value{}, fmt.Errorf("unknown type %q", t)
}

// printable is the floor under every text value, whatever its blueprint's pattern: valid
// UTF-8 without control or invisible characters (NUL, newline, tab, a right-to-left override, a
// zero-width space), which could end a line in a layer's file, hide part of the value in the
// preview or make it read as something else.
func printable(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", strconv.QuoteToASCII(s))
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("%s holds a control or invisible character (U+%04X): type printed text only", strconv.QuoteToASCII(s), r)
		}
	}
	return nil
}

// decimal reports whether s is digits with at most one decimal point: sizes have no
// exponents, signs, underscores, NaN or Inf.
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
