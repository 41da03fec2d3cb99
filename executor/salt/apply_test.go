package salt

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// applyOnce plans and applies spec, collecting the progress events.
func applyOnce(t *testing.T, l *Layer, spec executor.Spec) (executor.LayerResult, []executor.Event, error) {
	t.Helper()
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var events []executor.Event
	res, err := l.Apply(context.Background(), spec, p, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	return res, events, err
}

func TestApplyReportsEachStateInRunOrder(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	f.run = func(m string, _ string, _ map[string]any, test bool) any {
		if m == "node1" {
			return lvmStates(test)
		}
		return cleanStates()
	}
	l := newLayer(t, f, nil)
	res, events, err := applyOnce(t, l, lvmSpec("node1", "node2"))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	type step struct {
		Resource, Message string
		Done, Total       int
	}
	var got []step
	for _, e := range events {
		if e.Layer != executor.Salt || e.Unit != "lvm" || e.Time.IsZero() {
			t.Errorf("event %+v lacks layer, unit or time", e)
		}
		got = append(got, step{e.Resource, e.Message, e.Done, e.Total})
	}
	want := []step{
		{"node1: lvm.lv_present data-nextcloud", "changed", 1, 6},
		{"node1: blockdev.formatted fs-nextcloud (/dev/vg0/data-nextcloud)", "changed", 2, 6},
		{"node1: mount.mounted mount-nextcloud (/srv/data/nextcloud)", "changed", 3, 6},
		{"node1: pkg.installed xfsprogs", "unchanged", 4, 6},
		{"node2: lvm.lv_present data-nextcloud", "unchanged", 5, 6},
		{"node2: pkg.installed xfsprogs", "unchanged", 6, 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %+v\nwant %+v", got, want)
	}
	if res.Status != executor.ResultOK || res.Done != 6 || res.Total != 6 || res.Summary != "6 states on node1, node2, 3 changed" {
		t.Errorf("result %+v", res)
	}
	calls := f.applyCalls()
	if last := calls[len(calls)-1]; last.Test || last.Text != lvmText {
		t.Errorf("the apply ran %+v, want the real run of the unit's text", last)
	}
}

func TestApplyFailsOnAFailedState(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any {
		if test {
			return lvmStates(true)
		}
		return states(
			s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", true, map[string]any{"created": "data-nextcloud"}, "Created Logical Volume data-nextcloud", 0),
			s("blockdev", "fs-nextcloud", "/dev/vg0/data-nextcloud", "formatted", false, nil, "Failed to format /dev/vg0/data-nextcloud: mkfs.xfs not found", 1),
			s("mount", "mount-nextcloud", "/srv/data/nextcloud", "mounted", false, nil, "One or more requisite failed: fs-nextcloud", 2),
		)
	}
	res, events, err := applyOnce(t, newLayer(t, f, nil), lvmSpec("node1"))
	if err == nil {
		t.Fatal("Apply succeeded with a failed state")
	}
	wantErr := "lvm: blockdev.formatted fs-nextcloud (/dev/vg0/data-nextcloud) on node1 failed: Failed to format /dev/vg0/data-nextcloud: mkfs.xfs not found"
	if err.Error() != wantErr || res.Error != wantErr {
		t.Errorf("error %q / result error %q, want %q", err, res.Error, wantErr)
	}
	if res.Status != executor.ResultFailed || res.Failed == nil || res.Failed.Address != "node1: blockdev.formatted fs-nextcloud (/dev/vg0/data-nextcloud)" {
		t.Errorf("result %+v, want failed at the blockdev state", res)
	}
	if len(events) != 3 || events[1].Message != "failed: Failed to format /dev/vg0/data-nextcloud: mkfs.xfs not found" {
		t.Errorf("events %+v, want three with the failure second", events)
	}
}

func TestApplyFailsOnAnUnreachableMinion(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec("node1", "node2"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	f.down["node2"] = true // node2 goes away between plan and apply
	f.mu.Unlock()
	l.timeout = 300 * time.Millisecond
	var events []executor.Event
	res, err := l.Apply(context.Background(), lvmSpec("node1", "node2"), p, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	if err == nil || !strings.Contains(err.Error(), "minion node2 did not return within 300ms") {
		t.Fatalf("Apply error = %v, want node2 named as not returning", err)
	}
	if res.Status != executor.ResultFailed || res.Done != 4 {
		t.Errorf("result %+v, want failed after node1's 4 states", res)
	}
	if len(events) != 4 {
		t.Errorf("%d events, want node1's 4", len(events))
	}
}

func TestExpiredTokenLogsInAgain(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(string, string, map[string]any, bool) any { return cleanStates() }
	l := newLayer(t, f, nil)
	if _, err := l.Plan(context.Background(), lvmSpec()); err != nil {
		t.Fatalf("first Plan: %v", err)
	}
	f.mu.Lock()
	f.expireOnce = true
	f.mu.Unlock()
	p, err := l.Plan(context.Background(), lvmSpec())
	if err != nil {
		t.Fatalf("Plan after the token expired: %v", err)
	}
	if p.Status != executor.PlanNoChanges {
		t.Errorf("status %s, want no changes", p.Status)
	}
	f.mu.Lock()
	logins := f.logins
	f.mu.Unlock()
	if logins != 2 {
		t.Errorf("%d logins, want 2 (one more after the 401)", logins)
	}

	bad := newLayer(t, f, nil)
	bad.api.password = "wrong-password-77"
	_, err = bad.Plan(context.Background(), lvmSpec())
	if err == nil || !strings.Contains(err.Error(), "logging in to salt-api as eos (eauth pam): the credentials were refused") {
		t.Fatalf("Plan with a wrong password = %v", err)
	}
	if strings.Contains(err.Error(), "wrong-password-77") {
		t.Fatal("the error contains the password")
	}
}
