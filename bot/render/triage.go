package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/store"
)

// SeveralDrifted answers a triage reaction on a headline that lists more than one service.
func SeveralDrifted(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		env, service, _ := strings.Cut(k, "/")
		names[i] = service + " in " + env
	}
	return fmt.Sprintf("This digest lists %d services (%s): react 🔧, 📥 or 🔕 on the service's own reply in this thread, or say @eos reconcile SERVICE in ENV.",
		len(keys), strings.Join(names, ", "))
}

// AlreadyAsked answers a reaction on a post whose plan (of verb, "" while it is being made)
// is still being made or waits for approval.
func AlreadyAsked(service, env, verb string, c *store.Claim) string {
	if c.PlanID == "" || verb == "" {
		return fmt.Sprintf("@%s is already asking for a plan of %s in %s from this post: its preview follows in this thread.", c.User, service, env)
	}
	return fmt.Sprintf("Plan %s (%s %s in %s, asked by @%s) is already waiting in this thread: approve or reject it there. Nothing new planned.",
		c.PlanID, verb, service, env, c.User)
}
