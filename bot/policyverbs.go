package bot

import (
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
