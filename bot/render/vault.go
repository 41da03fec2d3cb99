package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// VaultRow is the preview's Vault line: which secrets the plan creates, reuses, keeps or
// deletes. Values are never shown.
func VaultRow(plan executor.Plan, configured bool) string {
	if sp := plan.Secrets; sp != nil {
		return fmt.Sprintf("creates %s%s, reuses %d%s — values never shown",
			secrets(len(sp.Create)), listed(sp.Create), len(sp.Reuse), listed(sp.Reuse))
	}
	var names, kept []string
	for _, u := range plan.Spec.Units {
		for _, s := range u.Secrets {
			if u.Destroy {
				kept = append(kept, u.Service+"/"+s)
			} else {
				names = append(names, u.Service+"/"+s)
			}
		}
	}
	sort.Strings(names)
	switch {
	case len(kept) > 0 && !configured:
		return "not configured — skipped: no secrets to keep or delete"
	case len(kept) > 0 && plan.Spec.PurgeSecrets:
		return fmt.Sprintf("deletes %s (%s) after the destroy (--purge-secrets)", secrets(len(kept)), strings.Join(kept, ", "))
	case len(kept) > 0:
		them := "them"
		if len(kept) == 1 {
			them = "it"
		}
		return fmt.Sprintf("keeps %s (%s): a later create reuses %s; add --purge-secrets to delete %[3]s", secrets(len(kept)), strings.Join(kept, ", "), them)
	case len(names) == 0 || configured:
		return ""
	}
	return fmt.Sprintf("not configured — skipped: %s needed (%s), values never shown", secrets(len(names)), strings.Join(names, ", "))
}

// secrets counts secrets: "1 secret", "2 secrets".
func secrets(n int) string { return fmt.Sprintf("%d secret%s", n, Plural(n)) }

func listed(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return " (" + strings.Join(paths, ", ") + ")"
}

// VaultSummary is the Vault line of p's preview: which secrets it creates, reuses, keeps or
// deletes, never their values; empty when the plan needs none.
func VaultSummary(p executor.Plan) string {
	needs := p.Secrets != nil && !p.Secrets.Empty()
	for _, u := range p.Spec.Units {
		needs = needs || len(u.Secrets) > 0
	}
	if !needs {
		return ""
	}
	return VaultRow(p, p.Secrets != nil)
}

// Plural is "s" for any count but one: fmt.Sprintf("%d secret%s", n, Plural(n)).
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
