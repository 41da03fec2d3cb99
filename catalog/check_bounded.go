package catalog

// checkBounded reports every string, path or list argument and flag that has neither a pattern
// nor (being an enum) values: what a person types reaches the layers, where it often becomes
// part of a file path, a device or a command, so a blueprint says what it accepts. Secret flags
// are never typed (Eos generates them) and need none; the other types are bounded by their
// own parsing (hostnames, sizes, ports, durations, services, enums).
func (f *folder) checkBounded() Diagnostics {
	var diags Diagnostics
	for i := range f.b.Args {
		if d, ok := unbounded(f.b.Args[i].AsFlag()); ok {
			diags = append(diags, d)
		}
	}
	for i := range f.b.Flags {
		if fl := &f.b.Flags[i]; !fl.Secret {
			if d, ok := unbounded(fl); ok {
				diags = append(diags, d)
			}
		}
	}
	return diags
}

// unbounded is the problem of a flag (or an argument's flag view) without a bound.
func unbounded(fl *Flag) (Diagnostic, bool) {
	if fl.Pattern != "" {
		return Diagnostic{}, false
	}
	var what, reaches string
	switch fl.Type {
	case String:
		what, reaches = "a string", "anything typed in chat reaches the layers, ../../etc included"
	case Path:
		what, reaches = "a path", "any absolute path typed in chat reaches the layers, /etc included"
	case List:
		what, reaches = "a list", "any item typed in chat reaches the layers, ../../etc included"
	default:
		return Diagnostic{}, false
	}
	return at(fl.Range, "%s %q is %s with no pattern: %s; bound it with pattern = \"...\" (an RE2 regexp the whole value must match, like \"[a-z0-9][a-z0-9-]*\") or make it an enum with values = [...]",
		fl.kind(), fl.Name, what, reaches), true
}
