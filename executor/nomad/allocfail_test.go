package nomad

import (
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
)

func failingJob(restarts, reschedules int, unlimited bool) *api.Job {
	name, mode := "app", "fail"
	hour := time.Hour
	return &api.Job{TaskGroups: []*api.TaskGroup{{
		Name:             &name,
		RestartPolicy:    &api.RestartPolicy{Attempts: &restarts, Mode: &mode},
		ReschedulePolicy: &api.ReschedulePolicy{Attempts: &reschedules, Interval: &hour, Unlimited: &unlimited},
	}}}
}

func ev(typ string, at int64, exit int) *api.TaskEvent {
	return &api.TaskEvent{Type: typ, Time: at, ExitCode: exit}
}

// Each failure is reported once, numbered by the restarts Nomad counted, even when Nomad
// dropped the task's oldest events.
func TestTaskFailuresAreReportedOnceEach(t *testing.T) {
	f := newAllocFailures(failingJob(3, 0, false))
	a := &api.AllocationListStub{ID: "d877c090-aaaa", TaskGroup: "app", ClientStatus: allocRunning, TaskStates: map[string]*api.TaskState{
		"badjob": {Restarts: 2, Events: []*api.TaskEvent{
			// The first Terminated and Restarting were dropped: only the last events are kept.
			ev(api.TaskStarted, 3, 0), ev(api.TaskTerminated, 4, 1), ev(api.TaskRestarting, 5, 0),
		}},
	}}
	if got, want := f.news([]*api.AllocationListStub{a}), []string{"allocation d877c090: task badjob exited 1 (restart 2 of 3)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("news = %q, want %q", got, want)
	}
	if got := f.news([]*api.AllocationListStub{a}); len(got) != 0 {
		t.Errorf("news again = %q, want nothing new", got)
	}
	s := a.TaskStates["badjob"]
	s.Restarts = 4
	s.Events = append(s.Events,
		// A restart someone asked for is not a failure.
		ev(api.TaskStarted, 6, 0), ev(api.TaskRestartSignal, 7, 0), &api.TaskEvent{Type: api.TaskTerminated, Time: 8, Signal: 15}, ev(api.TaskRestarting, 9, 0),
		ev(api.TaskStarted, 10, 0), &api.TaskEvent{Type: api.TaskTerminated, Time: 11, Signal: 9},
		ev(api.TaskRestarting, 12, 0), ev(api.TaskStarted, 13, 0), ev(api.TaskTerminated, 14, 1), ev(api.TaskNotRestarting, 15, 0),
		&api.TaskEvent{Type: api.TaskDriverFailure, Time: 16, DisplayMessage: "failed to start task"})
	want := []string{
		"allocation d877c090: task badjob was killed by signal 9 (restart 4)",
		"allocation d877c090: task badjob exited 1 after 4 restarts",
		"allocation d877c090: task badjob: failed to start task",
	}
	if got := f.news([]*api.AllocationListStub{a}); !reflect.DeepEqual(got, want) {
		t.Errorf("news = %q, want %q", got, want)
	}
}

// The wait ends early only when no allocation can become healthy: every one failed, and
// Nomad will neither restart nor reschedule it.
func TestHopelessOnlyWhenNothingCanBecomeHealthy(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	dead := func(id string, reschedules ...int64) *api.AllocationListStub {
		a := &api.AllocationListStub{ID: id, TaskGroup: "app", ClientStatus: allocFailed, TaskStates: map[string]*api.TaskState{
			"main": {Events: []*api.TaskEvent{ev(api.TaskTerminated, 1, 1), ev(api.TaskNotRestarting, 2, 0)}},
		}}
		if len(reschedules) > 0 {
			a.RescheduleTracker = &api.RescheduleTracker{}
			for _, at := range reschedules {
				a.RescheduleTracker.Events = append(a.RescheduleTracker.Events, &api.RescheduleEvent{RescheduleTime: at, PrevAllocID: "first000-x"})
			}
		}
		return a
	}
	running := &api.AllocationListStub{ID: "running0-x", TaskGroup: "app", ClientStatus: allocRunning}
	followup := dead("followup-x")
	followup.FollowupEvalID = "eval"
	recent, old := now.Add(-time.Minute).UnixNano(), now.Add(-2*time.Hour).UnixNano()
	for _, tc := range []struct {
		name   string
		job    *api.Job
		allocs []*api.AllocationListStub
		want   string
	}{
		{"no allocation yet", failingJob(0, 0, false), nil, ""},
		{"failed, no reschedule", failingJob(0, 0, false), []*api.AllocationListStub{dead("first000-x")}, "allocation first000: task main exited 1 and was not restarted"},
		{"another still runs", failingJob(0, 0, false), []*api.AllocationListStub{dead("first000-x"), running}, ""},
		{"unlimited reschedules", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x")}, ""},
		{"a reschedule left", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x")}, ""},
		{"a reschedule planned", failingJob(0, 0, false), []*api.AllocationListStub{followup}, ""},
		{"replacement failed, reschedules spent", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x"), dead("second00-x", recent)}, "allocation second00: task main exited 1 and was not restarted"},
		{"replacement failed, reschedule out of the interval", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x"), dead("second00-x", old)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newAllocFailures(tc.job)
			f.now = func() time.Time { return now }
			f.news(tc.allocs)
			cause, _, ok := f.hopeless(tc.allocs, nil)
			if cause != tc.want || ok != (tc.want != "") {
				t.Errorf("hopeless = %q, %v; want %q", cause, ok, tc.want)
			}
		})
	}
}

// A reschedule Nomad plans for after the group's progress deadline cannot save the deployment:
// the wait ends then, saying so; one planned before the deadline keeps it going.
func TestRescheduleAfterTheProgressDeadlineIsHopeless(t *testing.T) {
	deadline := time.Unix(2_000_000, 0)
	d := &api.Deployment{TaskGroups: map[string]*api.DeploymentState{"app": {RequireProgressBy: deadline}}}
	a := &api.AllocationListStub{ID: "first000-x", TaskGroup: "app", ClientStatus: allocFailed, FollowupEvalID: "later"}
	for _, tc := range []struct {
		name      string
		at        time.Time
		wantLate  bool
		wantFound bool
	}{
		{"after the deadline", deadline.Add(time.Minute), true, true},
		{"before the deadline", deadline.Add(-time.Minute), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newAllocFailures(failingJob(0, 0, true))
			f.rescheduleAt = func(id string) (time.Time, bool) { return tc.at, id == "later" }
			cause, late, ok := f.hopeless([]*api.AllocationListStub{a}, d)
			if ok != tc.wantFound || late != tc.wantLate || (ok && cause != "allocation first000 failed") {
				t.Errorf("hopeless = %q, late %v, %v; want late %v, %v", cause, late, ok, tc.wantLate, tc.wantFound)
			}
		})
	}
}
