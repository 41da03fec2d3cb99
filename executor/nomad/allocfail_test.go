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

// The wait ends early only when no allocation can become healthy: every one failed, and Nomad
// will neither restart nor reschedule it, or its replacement failed the same way.
func TestHopelessOnlyWhenNothingCanBecomeHealthy(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	dead := func(id string, exit int, reschedules ...int64) *api.AllocationListStub {
		a := &api.AllocationListStub{ID: id, TaskGroup: "app", ClientStatus: allocFailed, TaskStates: map[string]*api.TaskState{
			// Nomad marks Not Restarting as failing the task; its message is the policy's, not the
			// exit's.
			"main": {Failed: true, Events: []*api.TaskEvent{ev(api.TaskTerminated, 1, exit),
				{Type: api.TaskNotRestarting, Time: 2, FailsTask: true, DisplayMessage: `Exceeded allowed attempts 0 in interval 0s and mode is "fail"`}}},
		}}
		if len(reschedules) > 0 {
			a.RescheduleTracker = &api.RescheduleTracker{}
			prev := "first000-x"
			for _, at := range reschedules {
				a.RescheduleTracker.Events = append(a.RescheduleTracker.Events, &api.RescheduleEvent{RescheduleTime: at, PrevAllocID: prev})
				prev = "second00-x"
			}
		}
		return a
	}
	running := &api.AllocationListStub{ID: "running0-x", TaskGroup: "app", ClientStatus: allocRunning}
	followup := dead("followup-x", 1)
	followup.FollowupEvalID = "eval"
	recent, old := now.Add(-time.Minute).UnixNano(), now.Add(-2*time.Hour).UnixNano()
	// again is a replacement that failed like the allocation it replaced, with its own
	// reschedule already planned.
	again := dead("second00-x", 1, recent)
	again.FollowupEvalID = "eval"
	// driverFailed failed to start, its allocation ID in the message.
	driverFailed := func(id string, reschedules ...int64) *api.AllocationListStub {
		a := dead(id, 0, reschedules...)
		a.TaskStates["main"].Events = []*api.TaskEvent{{Type: api.TaskDriverFailure, Time: 1, FailsTask: true,
			DisplayMessage: "failed to launch command: no such file /var/nomad/alloc/" + id + "/main/local/run"}}
		return a
	}
	replacing := func(a *api.AllocationListStub, prev string) *api.AllocationListStub {
		a.RescheduleTracker.Events[0].PrevAllocID = prev
		return a
	}
	const (
		spent = "Nomad will neither restart nor reschedule it"
		// The test's groups have no delay in their reschedule policy.
		keeps = "it replaced allocation first000, which failed the same way; Nomad would keep rescheduling it: giving up"
	)
	for _, tc := range []struct {
		name      string
		job       *api.Job
		allocs    []*api.AllocationListStub
		want, why string
	}{
		{"no allocation yet", failingJob(0, 0, false), nil, "", ""},
		{"failed, no reschedule", failingJob(0, 0, false), []*api.AllocationListStub{dead("first000-x", 1)}, "allocation first000: task main exited 1 and was not restarted", spent},
		{"another still runs", failingJob(0, 0, false), []*api.AllocationListStub{dead("first000-x", 1), running}, "", ""},
		{"unlimited reschedules", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1)}, "", ""},
		{"a reschedule left", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x", 1)}, "", ""},
		{"a reschedule planned", failingJob(0, 0, false), []*api.AllocationListStub{followup}, "", ""},
		{"replacement failed, reschedules spent", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x", 1), dead("second00-x", 1, recent)}, "allocation second00: task main exited 1 and was not restarted", spent},
		{"replacement failed the same way, unlimited reschedules", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1), again}, "allocation second00: task main exited 1 and was not restarted", keeps},
		{"replacement failed the same way, reschedules left", failingJob(0, 3, false), []*api.AllocationListStub{dead("first000-x", 1), dead("second00-x", 1, recent)}, "allocation second00: task main exited 1 and was not restarted",
			"it replaced allocation first000, which failed the same way; Nomad would reschedule it 2 more times: giving up"},
		{"replacement failed otherwise", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1), dead("second00-x", 2, recent)}, "", ""},
		{"replacement failed to start the same way", failingJob(0, 0, true), []*api.AllocationListStub{driverFailed("first000-x"), driverFailed("second00-x", recent)}, "allocation second00: task main: failed to launch command: no such file /var/nomad/alloc/second00-x/main/local/run", keeps},
		{"replacement still runs", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1), {ID: "second00-x", TaskGroup: "app", ClientStatus: allocRunning,
			RescheduleTracker: &api.RescheduleTracker{Events: []*api.RescheduleEvent{{PrevAllocID: "first000-x"}}}}}, "", ""},
		{"third failed like the second, not the first", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 2), dead("second00-x", 1, recent), dead("third000-x", 1, recent, recent)}, "allocation third000: task main exited 1 and was not restarted",
			"it replaced allocation second00, which failed the same way; Nomad would keep rescheduling it: giving up"},
		{"every allocation's replacement failed the same way", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1), again, dead("other000-x", 1), replacing(dead("other001-x", 1, recent), "other000-x")}, "allocation other001: task main exited 1 and was not restarted",
			"it replaced allocation other000, which failed the same way; Nomad would keep rescheduling it: giving up"},
		{"one replacement failed again, the other allocation's is due", failingJob(0, 0, true), []*api.AllocationListStub{dead("first000-x", 1), again, dead("other000-x", 1)}, "", ""},
		{"replacement failed otherwise, a reschedule left out of the interval", failingJob(0, 1, false), []*api.AllocationListStub{dead("first000-x", 1), dead("second00-x", 2, old)}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newAllocFailures(tc.job)
			f.now = func() time.Time { return now }
			f.news(tc.allocs)
			cause, why, ok := f.hopeless(tc.allocs, nil)
			if cause != tc.want || why != tc.why || ok != (tc.want != "") {
				t.Errorf("hopeless = %q, %q, %v; want %q, %q", cause, why, ok, tc.want, tc.why)
			}
		})
	}
}

// How often Nomad would try again is said from the group's reschedule policy.
func TestGivingUpSaysHowNomadWouldKeepRescheduling(t *testing.T) {
	for _, tc := range []struct {
		delay time.Duration
		fn    string
		want  string
	}{
		{30 * time.Second, "exponential", "Nomad would keep rescheduling it every 30s or more"},
		{5 * time.Second, "constant", "Nomad would keep rescheduling it every 5s"},
	} {
		job := failingJob(0, 0, true)
		job.TaskGroups[0].ReschedulePolicy.Delay, job.TaskGroups[0].ReschedulePolicy.DelayFunction = &tc.delay, &tc.fn
		f := newAllocFailures(job)
		if got := f.nextAttempts(&api.AllocationListStub{TaskGroup: "app"}, 0, true); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.delay, tc.fn, got, tc.want)
		}
	}
	if got := newAllocFailures(failingJob(0, 3, false)).nextAttempts(&api.AllocationListStub{TaskGroup: "app"}, 1, false); got != "Nomad would reschedule it once more" {
		t.Errorf("one left: %q", got)
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
			cause, why, ok := f.hopeless([]*api.AllocationListStub{a}, d)
			late := why == "Nomad reschedules it only after the deployment's progress deadline"
			if ok != tc.wantFound || late != tc.wantLate || (ok && cause != "allocation first000 failed") {
				t.Errorf("hopeless = %q, %q, %v; want late %v, %v", cause, why, ok, tc.wantLate, tc.wantFound)
			}
		})
	}
}
