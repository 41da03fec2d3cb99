package policy

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// EnvPolicy says who may ask for and approve changes in one environment.
type EnvPolicy struct {
	// Requesters may ask for plans; empty means anyone.
	Requesters []string
	// Approvers may approve or reject; empty means anyone.
	Approvers []string
	// Approvals is how many distinct approvals a plan needs (default 1).
	Approvals int
	// SelfApproval lets the requester's own reaction count.
	SelfApproval bool
	// TTL is how long a plan waits for approval (default 30 minutes).
	TTL time.Duration
	// Verbs makes some verbs stricter (or looser): a verb's policy replaces the fields it
	// sets (non-empty lists, non-zero numbers; SelfApproval always), e.g. destroy needing two
	// approvals where create needs one.
	Verbs map[string]VerbPolicy
	// Risks make plans that carry a risk stricter, whatever their verb: risk "data-loss"
	// { approvals = 2 } (risk.go).
	Risks map[string]RiskPolicy
}

// VerbPolicy overrides an environment's policy for one verb.
type VerbPolicy struct {
	Requesters   []string
	Approvers    []string
	Approvals    int
	SelfApproval bool
}

// Policy is the approval policy: one EnvPolicy per environment, and a default for the rest.
type Policy struct {
	Default EnvPolicy
	Envs    map[string]EnvPolicy
}

// DefaultPolicy is what Eos does with no configuration: anyone may ask and approve, one
// approval, self-approval only in the "local" environment, plans live 30 minutes.
func DefaultPolicy() Policy {
	return Policy{
		Default: EnvPolicy{Approvals: 1, TTL: 30 * time.Minute},
		Envs:    map[string]EnvPolicy{"local": {Approvals: 1, SelfApproval: true, TTL: 30 * time.Minute}},
	}
}

// Unset reports whether p is the zero Policy, which the engine replaces with DefaultPolicy. A
// configured policy always has Envs (perhaps empty), so even an empty `policy "default" {}`
// block is the whole policy, never the built-ins.
func (p Policy) Unset() bool { return p.Envs == nil && reflect.DeepEqual(p.Default, EnvPolicy{}) }

// For returns the policy for verb in env, with defaults filled in.
func (p Policy) For(env, verb string) EnvPolicy {
	ep, ok := p.Envs[env]
	if !ok {
		ep = p.Default
	}
	if vp, ok := ep.Verbs[verb]; ok {
		if len(vp.Requesters) > 0 {
			ep.Requesters = vp.Requesters
		}
		if len(vp.Approvers) > 0 {
			ep.Approvers = vp.Approvers
		}
		if vp.Approvals > 0 {
			ep.Approvals = vp.Approvals
		}
		ep.SelfApproval = vp.SelfApproval
	}
	return ep.WithDefaults()
}

// WithDefaults fills in what an unset field means: one approval, 30 minutes.
func (ep EnvPolicy) WithDefaults() EnvPolicy {
	if ep.Approvals < 1 {
		ep.Approvals = 1
	}
	if ep.TTL <= 0 {
		ep.TTL = 30 * time.Minute
	}
	return ep
}

// Person is someone the policy judges: who they are on their platform (the platform and its
// immutable user ID), and which entries of the policy's lists name them. The engine resolves
// the entries before the judgement (a handle through the platform to an ID, a group through
// the platform's membership), so the policy itself does no I/O and never compares names.
type Person struct {
	// Platform and ID identify the person; Name is only for messages.
	Platform, ID, Name string
	// Matches are the list entries that name this person now: "bob" or "mattermost:bob" when
	// the platform says the handle bob is this ID, "group:sre" when it says they are in sre.
	Matches []string
	// Moved are the handle entries this person holds now that are pinned to another account:
	// they match nothing, and a refusal says why.
	Moved []string
	// Vacant are the handle entries this person holds now that nobody held when Eos first
	// looked them up: Eos cannot tell whether this is the person the policy means, so they
	// match nothing until an operator says so, and a refusal says why.
	Vacant []string
}

// Is reports whether the person is the user with id on platform. An empty id is nobody.
func (p Person) Is(platform, id string) bool { return id != "" && p.ID == id && p.Platform == platform }

// GroupPrefix marks a policy entry naming a platform group instead of a person.
const GroupPrefix = "group:"

// platforms are the prefixes a policy entry may carry to name someone on one platform only:
// the adapters' names, which the policy does not know itself.
var platforms = adapters.Platforms()

// entry is one policy list entry taken apart: "mattermost:group:sre" is platform mattermost,
// group sre; "bob" is handle bob on any platform.
type entry struct {
	platform string // "" for any
	group    bool
	name     string
}

// parseEntry takes a policy list entry apart.
func parseEntry(s string) entry {
	var e entry
	if p, rest, ok := strings.Cut(s, ":"); ok && slices.Contains(platforms, p) {
		e.platform, s = p, rest
	}
	if g, ok := strings.CutPrefix(s, GroupPrefix); ok {
		e.group, s = true, g
	}
	e.name = strings.TrimPrefix(s, "@")
	return e
}

// Allowed reports whether list names p: an empty list names anyone, else one of the entries
// the engine resolved for p must be in it.
func Allowed(list []string, p Person) bool {
	if len(list) == 0 {
		return true
	}
	for _, m := range p.Matches {
		if slices.Contains(list, m) {
			return true
		}
	}
	return false
}

// MayRequest reports whether p may ask for plans in this environment.
func (ep EnvPolicy) MayRequest(p Person) bool { return Allowed(ep.Requesters, p) }

// Platforms are the platforms a policy entry may name.
func Platforms() []string { return append([]string(nil), platforms...) }

// Entry is one entry of a policy's list taken apart: "mattermost:group:sre" is platform
// mattermost, group sre; "bob" is the handle bob on any platform. Platform is "" when the
// entry names none; Prefix is what came before a ':' that is not a platform Eos knows ("teams"
// in "teams:bob"), which no one can match.
type Entry struct {
	Platform, Prefix string
	Group            bool
	Name             string
}

// ParseEntry takes s apart as the policy reads it.
func ParseEntry(s string) Entry {
	e := parseEntry(s)
	pe := Entry{Platform: e.platform, Group: e.group, Name: e.name}
	if prefix, _, ok := strings.Cut(e.name, ":"); ok && !e.group {
		pe.Prefix = prefix
	}
	return pe
}
