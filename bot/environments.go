package bot

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/eosbot/eos/intents"
)

// declaredEnvs are the environments requests may name, worked out once by New: the declared
// ones and the default environment, sorted; nil when none is declared and any is allowed.
func declaredEnvs(declared []string, defaultEnv string) []string {
	if len(declared) == 0 {
		return nil
	}
	envs := append(slices.Clone(declared), defaultEnv)
	sort.Strings(envs)
	return slices.Compact(envs)
}

// knownEnvs are the environments requests may name; nil when any is allowed.
func (e *Engine) knownEnvs() []string { return e.cfg.Environments }

// unknownEnv explains why in names an environment nobody declared, or returns "". Once a
// configuration declares environments, a request for another one is refused, never silently
// governed by the default policy (a typo of "production" must not become a new, laxer
// environment).
func (e *Engine) unknownEnv(in *intents.Intent) string {
	envs := e.knownEnvs()
	if in.Env == "" || envs == nil || slices.Contains(envs, in.Env) {
		return ""
	}
	msg := fmt.Sprintf("unknown environment %q", in.Env)
	if s := intents.Suggest(in.Env, envs); s != "" {
		msg += fmt.Sprintf(" — did you mean %q?", s)
	}
	return msg + fmt.Sprintf(" Environments: %s. Nothing changed.", strings.Join(envs, ", "))
}
