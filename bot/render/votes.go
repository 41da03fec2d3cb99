package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
)

// What Eos says about a ✅ or ❌ on a preview, when the preview's status line cannot say it.

// Rejected says plan id was rejected by user.
func Rejected(id, user string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s rejected by @%s. Nothing changed.", id, user))
}

// ApprovalCounted says user's approval of plan id counted, and what it still needs (v).
func ApprovalCounted(id, user string, v policy.Verdict) adapters.Doc {
	return Reply(fmt.Sprintf("Approval for plan %s from @%s: %s.", id, user, Progress(v)))
}

// Denied refuses an approval of plan id that the policy as code denies, naming its rules.
func Denied(id string, code Code) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s cannot be approved: the policy denies it.\n%s\nNothing changed. Change the request, or ask the policy's owners to change the rule.",
		id, strings.Join(DenyLines(code), "\n")))
}

// Unrecorded answers a reaction the store could not record (its disk full, its database
// gone): never in silence, and saying what still holds, since nothing changed.
func Unrecorded(id, user string, reject, removed bool, err error) adapters.Doc {
	emoji := "✅"
	if reject {
		emoji = "❌"
	}
	if removed {
		return Reply(fmt.Sprintf("@%s, Eos could not record the removal of your %s on plan %s: its store cannot be written (%v). Nothing changed: it still counts. Add and remove it again once the store can be written (/healthz says).",
			user, emoji, id, err))
	}
	return Reply(fmt.Sprintf("@%s, Eos could not record your %s on plan %s: its store cannot be written (%v). Nothing changed and nothing starts from it: remove and add it again once the store can be written (/healthz says).",
		user, emoji, id, err))
}
