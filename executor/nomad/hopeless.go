package nomad

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/nomad/api"
)

// hopeless returns the cause when no allocation among allocs of deployment d can still become
// healthy, and why: each failed, Nomad will not restart it (its task is dead), and
//   - it will not reschedule it: its group's reschedule policy is spent;
//   - or only after the group's progress deadline, when the deployment has failed anyway;
//   - or it is itself the replacement Nomad placed for an allocation that failed the same way:
//     the version fails on a fresh placement too, so Nomad's next attempts (without limit
//     for services by default, each 30 s or more after the last) would only repeat the
//     failure until the progress deadline.
//
// A failed allocation already replaced counts through its replacement. With no allocation at
// all, there is still hope.
func (f *allocFailures) hopeless(allocs []*api.AllocationListStub, d *api.Deployment) (cause, why string, ok bool) {
	// replaced is the allocations whose replacement is among allocs: the replacement's
	// reschedule tracker names them (NextAllocation is not in Nomad 1.4's list stubs).
	replaced := map[string]bool{}
	byID := map[string]*api.AllocationListStub{}
	for _, a := range allocs {
		if a == nil {
			continue
		}
		byID[a.ID] = a
		if a.RescheduleTracker != nil {
			for _, ev := range a.RescheduleTracker.Events {
				if ev != nil {
					replaced[ev.PrevAllocID] = true
				}
			}
		}
	}
	for _, a := range sortedAllocs(allocs) {
		if a.ClientStatus != allocFailed {
			return "", "", false
		}
		if replaced[a.ID] {
			continue
		}
		if a.NextAllocation != "" {
			return "", "", false
		}
		var reason string
		left, unlimited := f.reschedulesLeft(a)
		prev := f.failedAgain(a, byID)
		switch {
		case a.FollowupEvalID == "" && !unlimited && left == 0:
			reason = "Nomad will neither restart nor reschedule it"
		case prev != "":
			reason = "it replaced allocation " + shortID(prev) + ", which failed the same way; " + f.nextAttempts(a, left, unlimited) + ": giving up"
		case a.FollowupEvalID != "" && f.pastDeadline(a, d):
			// A follow-up evaluation is a reschedule Nomad has planned for later.
			reason = "Nomad reschedules it only after the deployment's progress deadline"
		default:
			return "", "", false
		}
		if cause == "" {
			cause, why = f.cause(a), reason
		}
	}
	return cause, why, cause != ""
}

// cause is the newest failure reported for a failed allocation, or its task's last failure.
func (f *allocFailures) cause(a *api.AllocationListStub) string {
	if c := f.last[a.ID]; c != "" {
		return c
	}
	if why := taskFailure(a.TaskStates); why != "" {
		return "allocation " + shortID(a.ID) + ": " + why
	}
	return "allocation " + shortID(a.ID) + " failed"
}

// failedAgain returns the ID of the allocation among byID that the failed allocation a
// replaced, when it failed the same way (see failureKind); "" otherwise.
func (f *allocFailures) failedAgain(a *api.AllocationListStub, byID map[string]*api.AllocationListStub) string {
	if a.RescheduleTracker == nil {
		return ""
	}
	var prev *api.AllocationListStub
	for _, ev := range a.RescheduleTracker.Events {
		// The newest event names the allocation a replaced.
		if ev != nil {
			prev = byID[ev.PrevAllocID]
		}
	}
	if prev == nil || prev.ClientStatus != allocFailed {
		return ""
	}
	if kind := failureKind(a); kind == "" || kind != failureKind(prev) {
		return ""
	}
	return prev.ID
}

// failureKind is how an allocation's tasks failed, the same for two allocations that failed
// the same way: each failed task's last failure event (its type, exit code, signal and message,
// without the allocation's ID). Empty when no task says how it failed.
func failureKind(a *api.AllocationListStub) string {
	var kinds []string
	for _, name := range sortedKeys(a.TaskStates) {
		s := a.TaskStates[name]
		if s == nil || !s.Failed {
			continue
		}
		for i := len(s.Events) - 1; i >= 0; i-- {
			e := s.Events[i]
			// Not Restarting fails the task too, but says only that the restart policy is spent.
			if e == nil || e.Type == api.TaskNotRestarting || !(e.FailsTask || failureEvent(e.Type)) {
				continue
			}
			msg := strings.ReplaceAll(e.DisplayMessage, a.ID, "")
			msg = strings.ReplaceAll(msg, shortID(a.ID), "")
			kinds = append(kinds, fmt.Sprintf("%s: %s %d %d %s", name, e.Type, e.ExitCode, e.Signal, msg))
			break
		}
	}
	return strings.Join(kinds, "; ")
}

// failureEvent reports whether a task event of this type tells how the task failed.
func failureEvent(typ string) bool {
	switch typ {
	case api.TaskTerminated, api.TaskDriverFailure, api.TaskSetupFailure, api.TaskFailedValidation,
		api.TaskArtifactDownloadFailed, taskHookFailed:
		return true
	}
	return false
}

// nextAttempts says what Nomad would do next with a failed allocation it can still reschedule:
// "Nomad would keep rescheduling it every 30s or more", "Nomad would reschedule it 2 more
// times".
func (f *allocFailures) nextAttempts(a *api.AllocationListStub, left int, unlimited bool) string {
	if !unlimited {
		if left == 1 {
			return "Nomad would reschedule it once more"
		}
		return fmt.Sprintf("Nomad would reschedule it %d more times", left)
	}
	every := ""
	if tg := f.groups[a.TaskGroup]; tg != nil && tg.ReschedulePolicy != nil {
		if delay := deref(tg.ReschedulePolicy.Delay); delay > 0 {
			every = " every " + delay.String()
			if deref(tg.ReschedulePolicy.DelayFunction) != "constant" {
				every += " or more"
			}
		}
	}
	return "Nomad would keep rescheduling it" + every
}

// pastDeadline reports whether the replacement Nomad plans for a failed allocation comes only
// after its group's progress deadline (both times are the agent's).
func (f *allocFailures) pastDeadline(a *api.AllocationListStub, d *api.Deployment) bool {
	if f.rescheduleAt == nil || d == nil || d.TaskGroups[a.TaskGroup] == nil {
		return false
	}
	deadline := d.TaskGroups[a.TaskGroup].RequireProgressBy
	at, ok := f.rescheduleAt(a.FollowupEvalID)
	return ok && !deadline.IsZero() && at.After(deadline)
}

// reschedulesLeft is how many more times the group's reschedule policy lets Nomad replace the
// failed allocation (Nomad's RescheduleEligible), or unlimited; an unknown policy is
// unlimited.
func (f *allocFailures) reschedulesLeft(a *api.AllocationListStub) (left int, unlimited bool) {
	tg := f.groups[a.TaskGroup]
	if tg == nil || tg.ReschedulePolicy == nil {
		return 0, true
	}
	p := tg.ReschedulePolicy
	if deref(p.Unlimited) {
		return 0, true
	}
	attempts := deref(p.Attempts)
	if attempts <= 0 {
		return 0, false
	}
	n := 0
	if a.RescheduleTracker != nil {
		for _, ev := range a.RescheduleTracker.Events {
			if ev == nil {
				continue
			}
			if iv := deref(p.Interval); iv == 0 || f.now().Sub(time.Unix(0, ev.RescheduleTime)) < iv {
				n++
			}
		}
	}
	return max(attempts-n, 0), false
}
