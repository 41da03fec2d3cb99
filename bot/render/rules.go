package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/policy"
)

// The words Eos says about the approval policy's rules and verdicts (bot/policy decides; this
// file says it): who may approve, what a plan needs, how far its rules are.

// ruleNames names a policy list as the rule is written: "@bob, @dave or group:sre", "@bob on
// mattermost", or "anyone" for an empty list.
func ruleNames(list []string) string {
	if len(list) == 0 {
		return "anyone"
	}
	names := make([]string, len(list))
	for i, s := range list {
		en := policy.ParseEntry(s)
		names[i] = "@" + en.Name
		if en.Group {
			names[i] = policy.GroupPrefix + en.Name
		}
		if en.Platform != "" {
			names[i] += " on " + en.Platform
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// RulesWho names who may approve under rules: "@bob" or "@bob (destroy rule), @mallory
// (data-loss rule)".
func RulesWho(rules []policy.Rule) string {
	if len(rules) == 1 {
		return Mentions(rules[0].Approvers)
	}
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = Mentions(r.Approvers) + " (" + r.Name + ")"
	}
	return strings.Join(parts, ", ")
}

// RulesNeed states the rules a plan is judged by, for the preview and `why`. One rule reads as
// it always has ("Needs 2 approvals from @bob or @dave — not @alice (asked)"); several name
// each: "Needs 1 approval from @bob (destroy rule) and 1 from @mallory (data-loss rule: this
// plan loses data) — not @alice (asked)".
func RulesNeed(rules []policy.Rule, requester string) string {
	var s, because string
	if len(rules) == 1 {
		r := rules[0]
		s = fmt.Sprintf("Needs %d approval%s from %s", r.Approvals, Plural(r.Approvals), ruleNames(r.Approvers))
		if r.Risk != "" {
			because = fmt.Sprintf(" · the %q rule of %s, since %s", r.Risk, r.Env, r.Because)
		}
	} else {
		parts := make([]string, len(rules))
		for i, r := range rules {
			what := r.Name
			if r.Because != "" {
				what += ": " + r.Because
			}
			if i == 0 {
				parts[i] = fmt.Sprintf("%d approval%s from %s (%s)", r.Approvals, Plural(r.Approvals), ruleNames(r.Approvers), what)
			} else {
				parts[i] = fmt.Sprintf("%d from %s (%s)", r.Approvals, ruleNames(r.Approvers), what)
			}
		}
		s = "Needs " + strings.Join(parts, " and ")
	}
	if !policy.SelfAllowed(rules) {
		s += " — not @" + requester + " (asked)"
	}
	return s + because
}

// progress says how far each rule is, for the status line and `why`: "1 of 2: @bob ✅ ·
// waiting for one more" for one rule; "destroy rule: 0 of 1 from @bob · data-loss rule: 1 of
// 1 from @mallory ✅" for several (a rule partly there: "1 of 2 from @bob or @dave: @bob ✅").
func Progress(v policy.Verdict) string {
	if v.Single() {
		rp := v.Rules[0]
		s := fmt.Sprintf("%d of %d", len(rp.Counted), rp.Rule.Approvals)
		if len(rp.Counted) > 0 {
			s += ": " + votes(rp.Counted, "✅")
		}
		if !rp.Done() {
			s += " · waiting for " + howMany(rp.Rule.Approvals-len(rp.Counted))
		}
		return s
	}
	parts := make([]string, len(v.Rules))
	for i, rp := range v.Rules {
		parts[i] = fmt.Sprintf("%s: %d of %d from ", rp.Rule.Name, len(rp.Counted), rp.Rule.Approvals)
		switch {
		case rp.Done():
			parts[i] += votes(rp.Counted, "✅")
		case len(rp.Counted) > 0:
			parts[i] += ruleNames(rp.Rule.Approvers) + ": " + votes(rp.Counted, "✅")
		default:
			parts[i] += ruleNames(rp.Rule.Approvers)
		}
	}
	return strings.Join(parts, " · ")
}

// tally is how far the rules are in a few words, for `why`: "1 of 2" for one rule, progress
// for several.
func tally(v policy.Verdict) string {
	if v.Single() {
		return fmt.Sprintf("%d of %d", len(v.Rules[0].Counted), v.Rules[0].Rule.Approvals)
	}
	return Progress(v)
}

// DiscountedText says whose approvals no longer count: "@carol no longer counts: not an
// approver under the current policy".
func DiscountedText(v policy.Verdict) string {
	parts := make([]string, len(v.Discounted))
	for i, d := range v.Discounted {
		why := "not an approver under the current policy"
		if d.Why == policy.OwnApproval {
			why = "the requester's own approval does not count under the current policy"
		}
		parts[i] = "@" + d.Vote.User + " no longer counts: " + why
	}
	return strings.Join(parts, " · ")
}
