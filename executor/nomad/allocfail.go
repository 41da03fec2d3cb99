package nomad

import (
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/nomad/api"
)

// allocFailures follows the allocations of one job version while Eos waits for them to be
// healthy: it reports each task failure once, as it happens ("allocation d877c090: task app
// exited 1 (restart 2 of 3)"), and tells when no allocation can become healthy any more.
type allocFailures struct {
	groups map[string]*api.TaskGroup
	seen   map[string]bool
	// last is the newest failure of each allocation, by allocation ID.
	last map[string]string
	now  func() time.Time
	// rescheduleAt tells when a follow-up evaluation places a replacement (its WaitUntil);
	// false when that is not known. nil means never known.
	rescheduleAt func(evalID string) (time.Time, bool)
}

func newAllocFailures(job *api.Job) *allocFailures {
	f := &allocFailures{groups: map[string]*api.TaskGroup{}, seen: map[string]bool{}, last: map[string]string{}, now: time.Now}
	for _, tg := range job.TaskGroups {
		if tg != nil && tg.Name != nil {
			f.groups[*tg.Name] = tg
		}
	}
	return f
}

// news returns the failures not reported before, per allocation in the order they happened.
func (f *allocFailures) news(allocs []*api.AllocationListStub) []string {
	var out []string
	for _, a := range sortedAllocs(allocs) {
		for _, task := range sortedKeys(a.TaskStates) {
			s := a.TaskStates[task]
			if s == nil {
				continue
			}
			for i, e := range s.Events {
				if e == nil {
					continue
				}
				msg := f.describe(a, task, s, i)
				key := fmt.Sprintf("%s/%s/%d/%s", a.ID, task, e.Time, e.Type)
				if msg == "" || f.seen[key] {
					continue
				}
				f.seen[key] = true
				f.last[a.ID] = msg
				out = append(out, msg)
			}
		}
	}
	return out
}

// describe says what event i of a task means, when it is a failure: a restart after the task
// exited, the end of the restarts, or a failure of the driver or a task hook.
func (f *allocFailures) describe(a *api.AllocationListStub, task string, s *api.TaskState, i int) string {
	e := s.Events[i]
	prefix := "allocation " + shortID(a.ID) + ": task " + task
	switch e.Type {
	case api.TaskRestarting:
		if requested(s, i) {
			return ""
		}
		n := restartNumber(s, i)
		of := ""
		if tg := f.groups[a.TaskGroup]; tg != nil && tg.RestartPolicy != nil && tg.RestartPolicy.Attempts != nil && n <= uint64(*tg.RestartPolicy.Attempts) {
			of = fmt.Sprintf(" of %d", *tg.RestartPolicy.Attempts)
		}
		return fmt.Sprintf("%s %s (restart %d%s)", prefix, ended(s, i), n, of)
	case api.TaskNotRestarting:
		n := restartNumber(s, i)
		switch n {
		case 0:
			return prefix + " " + ended(s, i) + " and was not restarted"
		case 1:
			return prefix + " " + ended(s, i) + " after 1 restart"
		}
		return fmt.Sprintf("%s %s after %d restarts", prefix, ended(s, i), n)
	case api.TaskDriverFailure, api.TaskSetupFailure, api.TaskFailedValidation, api.TaskArtifactDownloadFailed, taskHookFailed:
		msg := e.DisplayMessage
		if msg == "" {
			msg = e.Type
		}
		return prefix + ": " + msg
	}
	return ""
}

// restartNumber is how many times the task had been restarted at event i: Nomad keeps only
// its last events but counts every restart.
func restartNumber(s *api.TaskState, i int) uint64 {
	later := uint64(0)
	for _, e := range s.Events[i+1:] {
		if e != nil && e.Type == api.TaskRestarting {
			later++
		}
	}
	if later > s.Restarts {
		return 0
	}
	return s.Restarts - later
}

// requested reports whether the restart at event i was asked for (nomad alloc restart, a
// template's change_mode) rather than caused by the task failing.
func requested(s *api.TaskState, i int) bool {
	for j := i - 1; j >= 0; j-- {
		e := s.Events[j]
		switch {
		case e == nil:
		case e.Type == api.TaskRestartSignal:
			return true
		case e.Type == api.TaskStarted || e.Type == api.TaskRestarting:
			return false
		}
	}
	return false
}

// ended says how the task ended before event i: "exited 1", "was killed by signal 9", or
// "failed" when its end is not among the events.
func ended(s *api.TaskState, i int) string {
	for j := i - 1; j >= 0; j-- {
		e := s.Events[j]
		if e == nil {
			continue
		}
		switch e.Type {
		case api.TaskTerminated:
			if e.Signal != 0 {
				return fmt.Sprintf("was killed by signal %d", e.Signal)
			}
			return fmt.Sprintf("exited %d", e.ExitCode)
		case api.TaskRestarting, api.TaskStarted:
			return "failed"
		case api.TaskKilled:
			return "was killed"
		}
	}
	return "failed"
}

// sortedAllocs is allocs without nils, oldest first.
func sortedAllocs(allocs []*api.AllocationListStub) []*api.AllocationListStub {
	out := make([]*api.AllocationListStub, 0, len(allocs))
	for _, a := range allocs {
		if a != nil {
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CreateIndex != out[j].CreateIndex {
			return out[i].CreateIndex < out[j].CreateIndex
		}
		return out[i].ID < out[j].ID
	})
	return out
}
