package bot

import (
	"strings"

	"github.com/eosbot/eos/intents"
)

// VerbSnooze is the verb of 🔕 on a drift report: only the environment's requesters may
// snooze, so a policy may name it like a verb that asks for a plan.
const VerbSnooze = "snooze"

// PolicyVerbs are the verbs a policy's verb block may name, as the grammar spells them (with
// their synonyms): the verbs whose plans the policy judges (create, destroy, update,
// reconcile, adopt, rollback and the catalog's operation verbs), then snooze. A block for any
// other word would never be applied, so the configuration refuses it.
func PolicyVerbs(p *intents.Parser) []intents.VerbWord {
	var out []intents.VerbWord
	for _, v := range p.VerbWords() {
		switch v.Verb {
		case intents.VerbCreate, intents.VerbDestroy, intents.VerbUpdate, intents.VerbReconcile,
			intents.VerbAdopt, intents.VerbRollback, intents.VerbOperation:
			out = append(out, v)
		}
	}
	return append(out, intents.VerbWord{Word: VerbSnooze})
}

// PolicyEntry is one entry of a policy's list taken apart, for the configuration's checks:
// "mattermost:group:sre" is platform mattermost, group sre; "bob" is the handle bob on any
// platform. Platform is "" when the entry names none; Prefix is what came before a ':' that
// is not a platform Eos knows ("teams" in "teams:bob"), which no one can match.
type PolicyEntry struct {
	Platform, Prefix string
	Group            bool
	Name             string
}

// ParsePolicyEntry takes s apart as the policy reads it.
func ParsePolicyEntry(s string) PolicyEntry {
	e := parseEntry(s)
	pe := PolicyEntry{Platform: e.platform, Group: e.group, Name: e.name}
	if prefix, _, ok := strings.Cut(e.name, ":"); ok && !e.group {
		pe.Prefix = prefix
	}
	return pe
}

// Platforms are the platforms a policy entry may name.
func Platforms() []string { return append([]string(nil), platforms...) }
