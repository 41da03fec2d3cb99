package render

import (
	"strings"

	"github.com/eosbot/eos/executor"
)

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
