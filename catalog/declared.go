package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// DeclaredFlags turns a deployed service's declared values (Value.Text by name, as Rendered
// gives them) back into typed flags, for rendering it again as it is. Secret flags are never
// taken from stored values (Eos generates them into Vault); values of flags the blueprint no
// longer has, values its types or enum words now refuse, and arguments are left out, so those
// flags take their defaults. Values outside a flag's constraints (min, max, pattern) are kept:
// Render refuses them by the flag's name rather than silently replacing them with the default.
func (b *Blueprint) DeclaredFlags(values map[string]string) map[string]Value {
	out := map[string]Value{}
	for name, text := range values {
		f, ok := b.Flag(name)
		if !ok || f.Secret {
			continue
		}
		v, err := ParseValue(f.Type, text)
		if err != nil || (f.Type == Enum && !contains(f.Values, v.Text)) {
			continue
		}
		out[name] = v
	}
	return out
}

// Requirements evaluates only b's requires blocks for req, rendering no layer: the services a
// deployment of b with these flags needs, and why. Eos asks it of deployed services (with
// DeclaredFlags) to find who needs a service that is about to be destroyed.
func (b *Blueprint) Requirements(req Request) ([]Required, error) {
	flags, err := b.bindFlags(req.Flags, map[string]Value{})
	if err != nil {
		return nil, err
	}
	args, err := b.bindArgs(req.Args, map[string]Value{})
	if err != nil {
		return nil, err
	}
	return b.renderRequires(evalContext(b, req.Env, flags, args))
}

// AdoptedFlags finds the flag values under which b renders the Terraform variables vars, as an
// adopt took them from what runs (volume_gb = 300 after a volume was grown by hand). req is
// the request the service is declared with (its declared flags, env and variant). Each
// variable of vars that differs from what req renders, and whose expression in the terraform
// block refers to exactly one flag, is tried back as that flag's value (a size in G for
// gib(flag.storage), the value itself for other types) and kept when rendering with it gives
// the variable exactly that value. It returns req's flags with the adopted ones, and by name
// the flags that changed, old → new text; a variable no flag explains is left out (the adopt
// still declares it as a variable).
func (b *Blueprint) AdoptedFlags(req Request, vars map[string]any) (map[string]Value, map[string][2]string) {
	flags := map[string]Value{}
	for k, v := range req.Flags {
		flags[k] = v
	}
	changed := map[string][2]string{}
	if b.Terraform == nil || b.Terraform.Data == nil {
		return flags, changed
	}
	base, err := b.Render(Request{Flags: flags, Args: req.Args, Env: req.Env, Variant: req.Variant})
	if err != nil || base.Terraform == nil {
		return flags, changed
	}
	items, hds := hcl.ExprMap(b.Terraform.Data)
	if hds.HasErrors() {
		return flags, changed
	}
	for _, item := range items {
		key, hds := item.Key.Value(nil)
		if hds.HasErrors() || key.Type() != cty.String || key.IsNull() {
			continue
		}
		name := key.AsString()
		want, ok := vars[name]
		if !ok || sameJSON(want, base.Terraform.Vars[name]) {
			continue
		}
		flag, ok := onlyFlag(item.Value)
		if !ok {
			continue
		}
		f, ok := b.Flag(flag)
		if !ok || f.Secret {
			continue
		}
		v, err := ParseValue(f.Type, flagText(f.Type, want))
		if err != nil {
			continue
		}
		try := map[string]Value{}
		for k, old := range flags {
			try[k] = old
		}
		try[flag] = v
		r, err := b.Render(Request{Flags: try, Args: req.Args, Env: req.Env, Variant: req.Variant})
		if err != nil || r.Terraform == nil || !sameJSON(r.Terraform.Vars[name], want) {
			continue
		}
		changed[flag] = [2]string{base.Values[flag].Text, v.Text}
		flags[flag] = v
	}
	return flags, changed
}

// onlyFlag names the flag an expression refers to, when it refers to one flag and nothing else
// (gib(flag.storage), flag.domain).
func onlyFlag(e hcl.Expression) (string, bool) {
	name := ""
	for _, tr := range e.Variables() {
		if tr.RootName() != "flag" || len(tr) < 2 {
			return "", false
		}
		attr, ok := tr[1].(hcl.TraverseAttr)
		if !ok || (name != "" && name != attr.Name) {
			return "", false
		}
		name = attr.Name
	}
	return name, name != ""
}

// flagText is the text a flag of type t would be typed as to give a variable the value v: a
// whole number of G for a size (the blueprints convert with gib()), v itself otherwise.
func flagText(t Type, v any) string {
	switch x := v.(type) {
	case float64:
		if t == Size {
			return strconv.FormatFloat(x, 'f', -1, 64) + "G"
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		if t == Size {
			return x.String() + "G"
		}
		return x.String()
	case int, int64:
		if t == Size {
			return fmt.Sprintf("%dG", x)
		}
		return fmt.Sprint(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// sameJSON compares two values as JSON, so a number read back as float64 equals an int64.
func sameJSON(a, b any) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && string(ja) == string(jb)
}
