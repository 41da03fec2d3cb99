package bot

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/intents"
)

// declaredEnvs are the environments requests may name, worked out once by New, sorted: the
// default environment, the listed ones, those a configured policy has a rule for, those with a
// variant and those a digest covers. Without a configuration that is the default environment
// alone: a typo of another must never become a new environment under the default rule.
func declaredEnvs(cfg Config, policyConfigured bool) []string {
	envs := append([]string{cfg.DefaultEnv}, cfg.Environments...)
	if policyConfigured {
		envs = slices.AppendSeq(envs, maps.Keys(cfg.Policy.Envs))
	}
	envs = slices.AppendSeq(envs, maps.Keys(cfg.Variants))
	for _, d := range cfg.Digests {
		envs = append(envs, d.Envs...)
	}
	envs = slices.DeleteFunc(envs, func(s string) bool { return s == "" })
	slices.Sort(envs)
	return slices.Compact(envs)
}

// knownEnvs are the environments requests may name (declaredEnvs).
func (e *Engine) knownEnvs() []string { return e.cfg.Environments }

// leftOutVerbs answer in an environment that is not declared but still holds services
// (deployed before the configuration left it out): what runs there can be looked at and
// destroyed, under the rule for environments without their own (Policy.Default), and nothing
// new is planned there.
var leftOutVerbs = []intents.Verb{intents.VerbDestroy, intents.VerbStatus, intents.VerbDrift, intents.VerbHistory}

// populated lists the services declared in env, sorted; nil when none is (or the store
// cannot say, which refuses like an empty environment).
func (e *Engine) populated(ctx context.Context, env string) []string {
	all, err := e.st.AllDeclared(ctx)
	if err != nil {
		e.log.Error("reading the declared state", "err", err)
		return nil
	}
	var out []string
	for _, d := range all {
		if de, service, _ := strings.Cut(d.Key, "/"); de == env {
			out = append(out, service)
		}
	}
	slices.Sort(out)
	return out
}

// envAllowed reports whether verb may act in env: a declared environment, or one left out that
// still holds services, for destroy and the read-only verbs. If not, it says why, with the
// environments there are and how to declare another.
func (e *Engine) envAllowed(ctx context.Context, env string, verb intents.Verb) (bool, string) {
	envs := e.knownEnvs()
	if env == "" || slices.Contains(envs, env) {
		return true, ""
	}
	if services := e.populated(ctx, env); len(services) > 0 {
		if slices.Contains(leftOutVerbs, verb) {
			return true, ""
		}
		return false, render.LeftOutEnv(env, services, declareHint(envs, env))
	}
	return false, render.UnknownEnv(env, intents.Suggest(env, envs), envs, declareHint(envs, env))
}

// declareHint is the setting that would declare env beside envs.
func declareHint(envs []string, env string) string {
	quoted := make([]string, 0, len(envs)+1)
	for _, s := range append(slices.Clone(envs), env) {
		quoted = append(quoted, fmt.Sprintf("%q", s))
	}
	return "environments = [" + strings.Join(quoted, ", ") + "]"
}

// unknownEnv explains why in may not act in the environment it names, or returns "".
func (e *Engine) unknownEnv(ctx context.Context, in *intents.Intent) string {
	_, msg := e.envAllowed(ctx, in.Env, in.Verb)
	return msg
}
