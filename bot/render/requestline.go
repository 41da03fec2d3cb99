package render

import (
	"strconv"
	"strings"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// secretShown stands for a secret's value wherever a request is repeated.
const secretShown = "•••"

// AskedOf is what in sets, as Spec.Asked records it: the operation's arguments in order, then
// each flag as given, bools as --NAME or --no-NAME, a secret flag's value masked (the engine
// refuses those before, but the line is built to never repeat one).
func AskedOf(bp *catalog.Blueprint, in *intents.Intent) []string {
	var out []string
	for _, a := range in.Args {
		out = append(out, shownValue(a.Text))
	}
	for _, f := range in.Flags {
		fl, ok := bp.Flag(f.Name)
		switch {
		case ok && fl.Secret:
			out = append(out, "--"+f.Name+" "+secretShown)
		case f.Value.Type == catalog.Bool && f.Value.Bool:
			out = append(out, "--"+f.Name)
		case f.Value.Type == catalog.Bool:
			out = append(out, "--no-"+f.Name)
		default:
			out = append(out, "--"+f.Name+" "+shownValue(f.Value.Text))
		}
	}
	return out
}

// shownValue is a value as the request line shows it: as typed when it is a plain word, else
// quoted with anything unusual spelt out, so that no value can pass for more words of the line
// ("x in production · asked by @bob").
func shownValue(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-,:/=%", r)) {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// RequestLine is what a plan asks, as its preview's first line says it and as a person could
// type it again: the verb, the target, every argument and flag the request set, the Salt
// targets and the environment: "resize lvm data +50G on node1 in production".
func RequestLine(spec executor.Spec) string {
	words := append([]string{spec.Verb, spec.Target}, spec.Asked...)
	if nodes := saltTargets(spec); len(nodes) > 0 {
		words = append(words, "on", strings.Join(nodes, ","))
	}
	return strings.Join(append(words, "in", spec.Env), " ")
}

// saltTargets are the minions the target unit's Salt state is applied to, when the request
// named them (on NODES).
func saltTargets(spec executor.Spec) []string {
	for _, u := range spec.Units {
		if u.Service == spec.Target && u.Salt != nil {
			return u.Salt.Targets
		}
	}
	return nil
}
