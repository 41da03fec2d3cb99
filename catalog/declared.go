package catalog

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
