package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
)

// The short answers about drift, rollback, reconcile and adopt.

// NothingDeclared answers a reconcile, adopt or rollback of service in env, which has no
// declared state: nothing is "nothing to adopt" and the like, next what follows the sentence
// (" @eos status", and what is in flight for the service).
func NothingDeclared(service, env, nothing, next string) adapters.Doc {
	return Reply(fmt.Sprintf("%s has no declared state in %s: %s.%s", service, env, nothing, next))
}

// CantAdopt says why service in env cannot be adopted as it runs (err, from the layers).
func CantAdopt(service, env string, err error) adapters.Doc {
	return Reply(fmt.Sprintf("Can't adopt %s in %s as it runs: %s. Nothing planned.", service, env, strings.TrimRight(err.Error(), ".")))
}

// SaltOnlyDrift answers an adopt of service in env whose only drift is in Salt's states, which
// cannot be adopted, and says how to keep or undo it.
func SaltOnlyDrift(service, env string, states []string) adapters.Doc {
	return Reply(fmt.Sprintf("Nothing to adopt in %s in %s: only Salt differs from its declared state, and Salt drift cannot be adopted (%s). "+
		"Salt's states are the source of truth: to keep the change, change the blueprint or its pillar; to undo it, @eos reconcile %s in %s. Nothing planned.",
		service, env, strings.Join(states, "; "), service, env))
}

// NothingToDrift answers `drift` when nothing that matches is deployed.
func NothingToDrift() adapters.Doc {
	return Reply("Nothing matching is deployed, so nothing can drift. @eos status")
}

// RunIsCurrent refuses `rollback SERVICE to RUN` when run id applied the state service has now.
func RunIsCurrent(id, service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Run %s applied the state %s has now in %s: nothing to roll back. @eos history %s lists the others.", id, service, env, service))
}

// RunDidNotApply refuses `rollback SERVICE to RUN` when run id applied nothing to service.
func RunDidNotApply(id, service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Run %s did not apply %s in %s (or did not finish): nothing to return to. @eos history %s lists the runs that did.", id, service, env, service))
}

// RunValuesCurrent refuses `rollback SERVICE to RUN` when run id applied the values service has
// now.
func RunValuesCurrent(id, service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Run %s applied the values %s has now in %s: nothing to roll back. @eos history %s lists the others.", id, service, env, service))
}

// NoEarlierState answers `rollback SERVICE` when no earlier applied state differs from the
// current one (applied by run current).
func NoEarlierState(service, env, current string) adapters.Doc {
	return Reply(fmt.Sprintf("%s in %s has no earlier applied state that differs from the current one (run %s): there is nothing to roll back to. To remove it: @eos destroy %s",
		service, env, current, service))
}

// NameAService answers `drift history` without a service.
func NameAService() adapters.Doc { return Reply("Name a service: @eos drift history nextcloud") }

// NotCheckedYet answers `drift history SERVICE` for a service (key env/service) never checked.
func NotCheckedYet(key, service string) adapters.Doc {
	return Reply(fmt.Sprintf("%s has not been checked for drift yet. @eos drift %s", key, service))
}

// DriftHistory answers `drift history SERVICE`: its checks (checked, status, what), oldest
// first.
func DriftHistory(key string, rows [][]string) adapters.Doc {
	return adapters.NewDoc(adapters.Heading{Text: "Drift history of " + key},
		adapters.Table{Header: []string{"checked (UTC)", "status", "what"}, Rows: rows})
}

// AlreadyAsDeclared is the answer to a reconcile, adopt or update (verb) of service in env
// whose plan would do nothing, as a sentence (the layers checked have nothing to change; those
// not configured here, off, are named, as they were not checked) and the commands that follow.
func AlreadyAsDeclared(service, env, verb string, checked, off []string) (text, next string) {
	lead := "already matches its declared state"
	if verb == "update" {
		lead = "already has the values asked for, at the catalog's version"
	}
	text = fmt.Sprintf("%s in %s %s: %s %s nothing to change, so there is nothing to %s and nothing is planned.",
		service, env, lead, strings.Join(checked, " and "), oneOrMany(len(checked), "has", "have"), verb)
	if len(off) > 0 {
		text += fmt.Sprintf(" %s %s not configured here, so %s not checked.", strings.Join(off, " and "), isAre(len(off)), oneOrMany(len(off), "it was", "they were"))
	}
	if verb == "update" {
		return text, fmt.Sprintf("@eos status %s in %s · @eos help %s lists its flags", service, env, service)
	}
	return text, fmt.Sprintf("@eos drift %s in %s", service, env)
}

// DriftNoPlanFixes answers a reconcile or adopt (verb) of service in env whose plan changes
// nothing although the drift check finds it differs (differs, per layer): for a reconcile, a
// Nomad allocation that failed in a group whose policy forbids rescheduling; for an adopt,
// any drift that is not a value to take in as declared, which a reconcile may fix (it
// reschedules a failed Nomad allocation where the group allows it).
func DriftNoPlanFixes(service, env, verb string, differs []string) adapters.Doc {
	article := "a"
	if strings.ContainsRune("aeiou", rune(verb[0])) {
		article = "an"
	}
	head := fmt.Sprintf("%s in %s still differs from its declared state (%s), but %s %s would change nothing that fixes it, so nothing is planned",
		service, env, strings.Join(differs, " · "), article, verb)
	if verb == "adopt" {
		return Reply(fmt.Sprintf("%s: an adopt takes in what runs, and this is not something to declare. A reconcile fixes what a layer can (a failed Nomad allocation is placed again): @eos reconcile %s in %s", head, service, env))
	}
	return Reply(fmt.Sprintf("%s: look at it in the layer itself. @eos drift %s in %s", head, service, env))
}
