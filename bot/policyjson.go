package bot

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encodeDocument is json.Marshal(doc), byte for byte, for the JSON-shaped documents the
// policy input is made of (policyInput: maps, lists, texts, whole numbers, bools, nulls, and
// numbers as the JSON decoder gives them). encoding/json spends most of its time on such a
// document reflecting on each value and sorting each map's keys through reflection; here the
// common types are written directly and anything else (a float the encoder writes in
// exponent form, a text that needs escaping, a type not listed) is left to json.Marshal, so
// the bytes are always its bytes. A plan's kept input takes less than half the time
// json.Marshal took, and 19 allocations instead of 255 (docs/PERFORMANCE.md, row 2b (h33b)).
func encodeDocument(doc any) ([]byte, error) {
	return appendDocument(make([]byte, 0, 2048), doc)
}

func appendDocument(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return appendText(dst, v)
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		// encoding/json writes a finite float64 in 'f' form unless it is under 1e-6 or from
		// 1e21 on (then 'e' form, trimmed): the 'f' case is the same call.
		if a := math.Abs(v); a == 0 || a >= 1e-6 && a < 1e21 {
			return strconv.AppendFloat(dst, v, 'f', -1, 64), nil
		}
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendDocument(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // encoding/json's order
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendText(dst, k); err != nil {
				return nil, err
			}
			dst = append(dst, ':')
			if dst, err = appendDocument(dst, v[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return appendMarshalled(dst, v)
}

// appendText writes s quoted: as it is when no byte of it needs escaping, else as
// json.Marshal writes it. encoding/json escapes `"`, `\`, control characters, the HTML
// characters <, >, &, the line and paragraph separators U+2028 and U+2029, and replaces
// invalid UTF-8; every other character it copies.
func appendText(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendMarshalled(dst, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendMarshalled(dst, s)
		}
		i += size
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"'), nil
}

func appendMarshalled(dst []byte, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, raw...), nil
}
