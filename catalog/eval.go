package catalog

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions are what blueprint expressions may call: gib() and seconds() plus a few pure
// functions of the cty standard library. Nothing here reads files, the environment or the clock.
var functions = map[string]function.Function{
	"gib":      gibFunc,
	"seconds":  secondsFunc,
	"lower":    stdlib.LowerFunc,
	"upper":    stdlib.UpperFunc,
	"join":     stdlib.JoinFunc,
	"format":   stdlib.FormatFunc,
	"concat":   stdlib.ConcatFunc,
	"contains": stdlib.ContainsFunc,
	"coalesce": stdlib.CoalesceFunc,
}

func functionNames() []string { return sortedKeys(functions) }

// gibFunc turns a size's text ("100G", "+50G", "500GB") into a number of GiB (100, 50, 465.66...).
var gibFunc = function.New(&function.Spec{
	Description: "The number of GiB in a size such as 100G.",
	Params:      []function.Parameter{{Name: "size", Type: cty.String}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, err := ParseSize(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		q := new(big.Float).Quo(new(big.Float).SetInt64(v.Bytes), new(big.Float).SetInt64(gib))
		return cty.NumberVal(q), nil
	},
})

// secondsFunc turns a duration's text ("90s", "1h30m", "2d") into a number of seconds.
var secondsFunc = function.New(&function.Spec{
	Description: "The number of seconds in a duration such as 1h30m.",
	Params:      []function.Parameter{{Name: "duration", Type: cty.String}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, err := ParseDuration(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.NumberFloatVal(v.Duration.Seconds()), nil
	},
})

// ctyType is the cty type of values of t, for typed nulls of unset flags.
func ctyType(t Type) cty.Type {
	switch t {
	case Bool:
		return cty.Bool
	case Int, Port:
		return cty.Number
	case List:
		return cty.List(cty.String)
	}
	return cty.String
}

// evalContext is what expressions of b see for one request.
func evalContext(b *Blueprint, env string, flags, args map[string]cty.Value) *hcl.EvalContext {
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"flag":    objectOrEmpty(flags),
			"arg":     objectOrEmpty(args),
			"env":     cty.StringVal(env),
			"service": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(b.Name)}),
		},
		Functions: functions,
	}
}

func objectOrEmpty(m map[string]cty.Value) cty.Value {
	if len(m) == 0 {
		return cty.EmptyObjectVal
	}
	return cty.ObjectVal(m)
}

// toGo converts an evaluated value into plain Go data that encodes to the same JSON: nil,
// bool, string, int64 (whole numbers) or float64, []any and map[string]any.
func toGo(v cty.Value) (any, error) {
	if !v.IsWhollyKnown() {
		return nil, fmt.Errorf("value is not known until apply")
	}
	if v.IsNull() {
		return nil, nil
	}
	v, _ = v.Unmark()
	switch t := v.Type(); {
	case t == cty.String:
		return v.AsString(), nil
	case t == cty.Bool:
		return v.True(), nil
	case t == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			if i, acc := bf.Int64(); acc == big.Exact {
				return i, nil
			}
		}
		f, _ := bf.Float64()
		return f, nil
	case t.IsObjectType() || t.IsMapType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			g, err := toGo(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k.AsString(), err)
			}
			out[k.AsString()] = g
		}
		return out, nil
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			g, err := toGo(e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	}
	return nil, fmt.Errorf("values of type %s cannot be handed to a template", v.Type().FriendlyName())
}

// toValue converts an evaluated flag value for a required service into a Value. Its type is
// the closest plain one (bool, int, string, list); rendering the required service then parses
// it as the type its flag declares.
func toValue(v cty.Value) (Value, error) {
	g, err := toGo(v)
	if err != nil {
		return Value{}, err
	}
	switch x := g.(type) {
	case bool:
		return BoolValue(x), nil
	case int64:
		return Value{Type: Int, Int: x, Text: fmt.Sprint(x)}, nil
	case float64:
		return StringValue(String, v.AsBigFloat().Text('f', -1)), nil
	case string:
		return StringValue(String, x), nil
	case []any:
		items := make([]string, 0, len(x))
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return Value{}, fmt.Errorf("a list flag holds strings, not %T", it)
			}
			items = append(items, s)
		}
		return Value{Type: List, List: items, Text: strings.Join(items, ",")}, nil
	}
	return Value{}, fmt.Errorf("a flag value must be a bool, number, string or list of strings")
}
