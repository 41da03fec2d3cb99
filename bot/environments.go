package bot

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/eosbot/eos/intents"
)

// knownEnvs are the environments requests may name: Config.Environments and the default
// environment, sorted; nil when any environment is allowed.
func (e *Engine) knownEnvs() []string {
	if len(e.cfg.Environments) == 0 {
		return nil
	}
	envs := slices.Clone(e.cfg.Environments)
	if !slices.Contains(envs, e.cfg.DefaultEnv) {
		envs = append(envs, e.cfg.DefaultEnv)
	}
	sort.Strings(envs)
	return envs
}

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
