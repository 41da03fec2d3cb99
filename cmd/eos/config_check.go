package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/intents"
)

// configError lists every part of a configuration Eos would not apply as written, one line
// each, led by the file and line it is on.
type configError struct{ problems []string }

func (e *configError) Error() string {
	n := len(e.problems)
	return fmt.Sprintf("the configuration has %d %s; nothing was started:\n  %s", n, plural(n, "problem", "problems"),
		strings.Join(e.problems, "\n  "))
}

// check refuses a configuration whose policy Eos would not apply as written, since any label
// Eos does not match exactly is a rule that silently never applies: a verb block must name a
// verb a plan carries, spelled as Eos spells it (not a synonym); a risk block a risk Eos
// knows; an environment label, variant or digest an environment that is declared (or, with
// no environments list, one that is not a near-miss of another); a list entry a platform
// that is configured, and a group that platform can hold. Unknown settings and blocks are
// refused earlier, by the HCL decoding (loadConfig). It does no I/O: `eos config check` and
// every command that builds the engine run it before anything connects.
func (c *Config) check(parser *intents.Parser) error {
	var probs []string
	add := func(r hcl.Range, format string, args ...any) {
		probs = append(probs, at(r)+fmt.Sprintf(format, args...))
	}
	verbs := bot.PolicyVerbs(parser)
	seenEnv := map[string]hcl.Range{}
	for _, pc := range c.Policies {
		if prev, ok := seenEnv[pc.Env]; ok {
			add(pc.At, "policy %q is written twice (also at %s): the second would replace the first; merge them into one block", pc.Env, line(prev))
		}
		seenEnv[pc.Env] = pc.At
		where := fmt.Sprintf("policy %q", pc.Env)
		switch {
		case strings.TrimSpace(pc.Env) == "":
			add(pc.At, "policy %q names no environment: write the environment's name, or \"default\" for every environment without a block of its own", pc.Env)
		case pc.Env != "default" && strings.EqualFold(pc.Env, "default"):
			add(pc.At, "policy %q: write policy \"default\" for every environment without a block of its own (labels are matched exactly)", pc.Env)
		}
		c.checkApprovals(add, pc.ApprovalsAt, where, pc.Approvals)
		c.checkEntries(add, pc.RequestersAt, where, "requesters", pc.Requesters)
		c.checkEntries(add, pc.ApproversAt, where, "approvers", pc.Approvers)
		seenVerb := map[string]hcl.Range{}
		for _, v := range pc.Verbs {
			if msg := verbProblem(parser, verbs, v.Verb); msg != "" {
				add(v.At, "%s", msg)
			} else if prev, ok := seenVerb[v.Verb]; ok {
				add(v.At, "verb %q is written twice in %s (also at %s): the second would replace the first; merge them into one block", v.Verb, where, line(prev))
			}
			seenVerb[v.Verb] = v.At
			in := fmt.Sprintf("verb %q of %s", v.Verb, where)
			c.checkApprovals(add, v.ApprovalsAt, in, v.Approvals)
			c.checkEntries(add, v.RequestersAt, in, "requesters", v.Requesters)
			c.checkEntries(add, v.ApproversAt, in, "approvers", v.Approvers)
		}
		seenRisk := map[string]hcl.Range{}
		for _, r := range pc.Risks {
			if !slices.Contains(bot.Risks, r.Risk) {
				msg := fmt.Sprintf("risk %q: Eos knows no such risk.", r.Risk)
				if lower := strings.ToLower(r.Risk); slices.Contains(bot.Risks, lower) {
					msg = fmt.Sprintf("risk %q: write risk %q (risks are written in lower case).", r.Risk, lower)
				} else if s := intents.Suggest(r.Risk, bot.Risks); s != "" {
					msg = fmt.Sprintf("risk %q: Eos knows no such risk — did you mean risk %q?", r.Risk, s)
				}
				add(r.At, "%s A risk block can name: %s", msg, strings.Join(bot.Risks, ", "))
			} else if prev, ok := seenRisk[r.Risk]; ok {
				add(r.At, "risk %q is written twice in %s (also at %s): the second would replace the first; merge them into one block", r.Risk, where, line(prev))
			}
			seenRisk[r.Risk] = r.At
			in := fmt.Sprintf("risk %q of %s", r.Risk, where)
			c.checkApprovals(add, r.ApprovalsAt, in, r.Approvals)
			c.checkEntries(add, r.ApproversAt, in, "approvers", r.Approvers)
		}
	}
	c.checkEnvs(add)
	if len(probs) > 0 {
		return &configError{problems: probs}
	}
	return nil
}

// verbProblem says why a verb block's label is not one Eos applies, or "".
func verbProblem(parser *intents.Parser, verbs []intents.VerbWord, label string) string {
	var words, every []string
	for _, v := range verbs {
		words = append(words, v.Word)
		every = append(every, v.Word)
		every = append(every, v.Synonyms...)
	}
	list := "A verb block can name: " + strings.Join(words, ", ")
	if slices.Contains(words, label) {
		return ""
	}
	if lower := strings.ToLower(label); slices.Contains(words, lower) {
		return fmt.Sprintf("verb %q: write verb %q (verbs are written in lower case)", label, lower)
	}
	word, ok := parser.VerbOf(label)
	if !ok {
		// A misspelling of a policy verb or of one of its synonyms.
		if s := intents.Suggest(label, every); s != "" {
			if w, ok := parser.VerbOf(s); ok {
				s = w
			}
			return fmt.Sprintf("verb %q: Eos has no such verb — did you mean verb %q? %s", label, s, list)
		}
		return fmt.Sprintf("verb %q: Eos has no such verb. %s", label, list)
	}
	i := slices.IndexFunc(verbs, func(v intents.VerbWord) bool { return v.Word == word })
	if i < 0 {
		return fmt.Sprintf("verb %q: %s asks for no approval, so a rule for it would never apply. %s", label, word, list)
	}
	syn := verbs[i].Synonyms
	switch len(syn) {
	case 0:
		return fmt.Sprintf("verb %q: write verb %q", label, word)
	case 1:
		return fmt.Sprintf("verb %q: write verb %q (%s is its synonym)", label, word, syn[0])
	}
	return fmt.Sprintf("verb %q: write verb %q (%s and %s are its synonyms)", label, word,
		strings.Join(syn[:len(syn)-1], ", "), syn[len(syn)-1])
}

// checkApprovals refuses a negative count, which would silently mean one.
func (c *Config) checkApprovals(add func(hcl.Range, string, ...any), r hcl.Range, where string, n int) {
	if n < 0 {
		add(r, "approvals = %d in %s: write 1 or more", n, where)
	}
}

// configuredPlatforms are the platforms `eos serve` serves with this configuration.
func (c *Config) configuredPlatforms() []string {
	var out []string
	if c.consoleEnabled() {
		out = append(out, "console")
	}
	if c.Mattermost != nil {
		out = append(out, "mattermost")
	}
	if c.Slack != nil {
		out = append(out, "slack")
	}
	if c.Discord != nil {
		out = append(out, "discord")
	}
	return out
}

// checkEntries refuses list entries that could admit nobody whatever happens in chat: a
// prefix that is no platform, a platform that is not configured, a console group the console
// does not define (the console is the one platform whose groups are known here).
func (c *Config) checkEntries(add func(hcl.Range, string, ...any), r hcl.Range, where, list string, entries []string) {
	configured := c.configuredPlatforms()
	for _, s := range entries {
		e := bot.ParsePolicyEntry(s)
		what := fmt.Sprintf("%s entry %q in %s", list, s, where)
		switch {
		case e.Prefix != "":
			add(r, "%s: %q is not a platform; write %q for whoever holds the handle on any platform, or prefix it with one of %s",
				what, e.Prefix, strings.TrimPrefix(s, e.Prefix+":"), strings.Join(bot.Platforms(), ", "))
		case e.Name == "":
			add(r, "%s names nobody", what)
		case e.Platform != "" && !slices.Contains(configured, e.Platform):
			add(r, "%s: %s is not configured here (serving: %s), so the entry would admit nobody; configure a %s block or remove the entry",
				what, e.Platform, strings.Join(configured, ", "), e.Platform)
		case e.Group && c.consoleOnly(e.Platform, configured) && c.Console.Groups[e.Name] == nil:
			add(r, "%s: the console has no group %q (its groups: %s), so the entry would admit nobody; define it: console { groups = { %s = [\"alice\"] } }",
				what, e.Name, groupNames(c.Console.Groups), e.Name)
		}
	}
}

// consoleOnly says whether a group entry of platform ("" for any) can only be the console's.
func (c *Config) consoleOnly(platform string, configured []string) bool {
	if platform != "" {
		return platform == "console"
	}
	return slices.Equal(configured, []string{"console"})
}

func groupNames(groups map[string][]string) string {
	if len(groups) == 0 {
		return "none"
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// envLabel is one place the configuration names an environment.
type envLabel struct {
	env, what string
	at        hcl.Range
}

// envLabels are the environments the configuration names outside its environments list:
// variants and digests first, then policy blocks.
func (c *Config) envLabels() []envLabel {
	var out []envLabel
	if c.Terraform != nil {
		for _, env := range sortedKeys(c.Terraform.Variants) {
			out = append(out, envLabel{env, fmt.Sprintf("terraform variants: %q", env), c.Terraform.VariantsAt})
		}
	}
	for _, d := range c.Digests {
		for _, env := range d.Envs {
			out = append(out, envLabel{env, fmt.Sprintf("digest %q: envs %q", d.Name, env), d.EnvsAt})
		}
	}
	for _, pc := range c.Policies {
		if pc.Env != "default" && strings.TrimSpace(pc.Env) != "" { // a blank label is refused in check
			out = append(out, envLabel{pc.Env, fmt.Sprintf("policy %q", pc.Env), pc.At})
		}
	}
	return out
}

// checkEnvs refuses an environment named by a policy block, a variant or a digest that is
// not one of the declared ones: with an environments list, any not in it (nor the default);
// without one, any that is a near-miss of another the configuration names (a typo would
// otherwise become an environment of its own, under the default rule).
func (c *Config) checkEnvs(add func(hcl.Range, string, ...any)) {
	labels := c.envLabels()
	if len(c.Environments) > 0 {
		known := append(slices.Clone(c.Environments), c.DefaultEnv)
		slices.Sort(known)
		known = slices.Compact(known)
		for _, l := range labels {
			if slices.Contains(known, l.env) {
				continue
			}
			msg := fmt.Sprintf("%s: %q is not a declared environment.", l.what, l.env)
			if s := closest(l.env, known); s != "" {
				msg = fmt.Sprintf("%s: %q is not a declared environment — did you mean %q?", l.what, l.env, s)
			}
			add(l.at, "%s Environments: %s (environments = [...] at %s, and default_env). Name one of them, or add %q to the list",
				msg, strings.Join(known, ", "), line(c.EnvironmentsAt), l.env)
		}
		return
	}
	// The first place each environment is named; the default environment comes first.
	first := []envLabel{{c.DefaultEnv, fmt.Sprintf("default_env %q", c.DefaultEnv), hcl.Range{}}}
	names := []string{c.DefaultEnv}
	for _, l := range labels {
		if !slices.Contains(names, l.env) {
			names = append(names, l.env)
			first = append(first, l)
		}
	}
	for _, l := range labels {
		// Only names before this one: a pair one edit apart is refused once, at the later.
		i := slices.Index(names, l.env)
		s := closest(l.env, names[:i])
		if s == "" {
			continue
		}
		o := first[slices.Index(names, s)]
		where := ""
		if o.at.Filename != "" {
			where = " at " + line(o.at)
		}
		add(l.at, "%s and %s%s name environments %q and %q, one a likely misspelling of the other; fix it, or if both are environments, declare them: environments = [%q, %q]",
			l.what, o.what, where, l.env, s, min(l.env, s), max(l.env, s))
	}
}

// closest is the candidate word likely means: the same name in another case (which Suggest
// does not offer), or Suggest's did-you-mean; "" when none is close.
func closest(word string, candidates []string) string {
	if i := slices.IndexFunc(candidates, func(c string) bool { return strings.EqualFold(c, word) }); i >= 0 {
		return candidates[i]
	}
	return intents.Suggest(word, candidates)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// at is "file:line: " for a refusal, or "" when the setting came from no file.
func at(r hcl.Range) string {
	if r.Filename == "" {
		return ""
	}
	return line(r) + ": "
}

func line(r hcl.Range) string {
	if r.Filename == "" {
		return "the environment"
	}
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}
