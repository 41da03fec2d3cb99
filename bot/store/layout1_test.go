package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store/pgtest"
)

// Stores written before plans kept their body apart (layout 1: the whole plan in one record)
// keep working: their plans are read as they are, and each moves to the new layout the first
// time it is written, its body's bytes unchanged.

// testdata/layout1.db.gz is a bbolt store written by the Eos of commit f14cc8f through the
// engine (instant layers): `create nextcloud --sso` approved and run to the end, `create grafana
// --port 3001` pending with its preview, `create jenkins` rejected.
func TestStoreWrittenInLayout1IsReadAndMovedOnWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eos.db")
	unzip(t, "testdata/layout1.db.gz", path)
	s, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// What the old Eos stored, decoded as it decoded it.
	old := map[string]*Plan{}
	if err := s.view(context.Background(), func(tx txn) error {
		return each(tx, bucketPlans, func(id string, p *Plan) bool { old[id] = p; return true })
	}); err != nil {
		t.Fatal(err)
	}
	byTarget := map[string]*Plan{}
	for _, p := range old {
		byTarget[p.Plan.Spec.Target] = p
	}
	next, grafana, jenkins := byTarget["nextcloud"], byTarget["grafana"], byTarget["jenkins"]
	if len(old) != 3 || next == nil || grafana == nil || jenkins == nil || len(next.Plan.Spec.Units) != 2 {
		t.Fatalf("the layout-1 store holds %d plans, not the three it was written with", len(old))
	}
	if next.State != PlanApproved || next.Outcome == nil || grafana.State != PlanPending || jenkins.State != PlanRejected {
		t.Fatalf("states in the layout-1 store: %s %s %s", next.State, grafana.State, jenkins.State)
	}

	same := func(when string, got *Plan, err error, want *Plan) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %+v\nwant %+v", when, got, want)
		}
	}
	for id, want := range old {
		p, err := s.Plan(context.Background(), id)
		same("Plan "+id, p, err, want)
		p, err = s.PlanByPost(context.Background(), want.Preview)
		same("PlanByPost "+id, p, err, want)
	}
	all, err := s.Plans(context.Background(), func(*Plan) bool { return true })
	if err != nil || len(all) != 3 {
		t.Fatalf("Plans = %d, %v", len(all), err)
	}
	for _, p := range all {
		same("Plans", p, nil, old[p.ID])
	}
	open, err := s.OpenPlans(context.Background(), func(*Plan) bool { return true })
	if err != nil || len(open) != 1 {
		t.Fatalf("OpenPlans = %v, %v; want grafana's", open, err)
	}
	same("OpenPlans", open[0], nil, grafana)
	if ps, err := s.PlansByRequest(context.Background(), next.Request); err != nil || len(ps) != 1 {
		t.Fatalf("PlansByRequest = %v, %v", ps, err)
	} else {
		same("PlansByRequest", ps[0], nil, next)
	}

	// Writing a plan moves it: the inline body becomes its body record, byte for byte.
	inline := func(id string) []byte {
		var rec struct {
			Plan json.RawMessage `json:"plan"`
		}
		if err := json.Unmarshal(rawRecord(t, s, bucketPlans, id), &rec); err != nil {
			t.Fatal(err)
		}
		return rec.Plan
	}
	grafanaBody := inline(grafana.ID)
	ref := adapters.PostRef{Platform: "console", Channel: "local", ID: "moved"}
	if err := s.SetPreview(context.Background(), grafana.ID, ref); err != nil {
		t.Fatal(err)
	}
	approved, err := s.UpdatePlan(context.Background(), grafana.ID, func(p *Plan) error { p.State = PlanApproved; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if got := rawRecord(t, s, bucketPlanBodies, grafana.ID); !bytes.Equal(got, grafanaBody) {
		t.Errorf("grafana's body after the move:\n%s\nwant the inline bytes\n%s", got, grafanaBody)
	}
	if in := inline(grafana.ID); in != nil {
		t.Errorf("grafana's record still has its body inline after being written: %d bytes", len(in))
	}
	want := *grafana
	want.Preview, want.State = ref, PlanApproved
	same("UpdatePlan's answer", approved, nil, &want)
	p, err := s.Plan(context.Background(), grafana.ID)
	same("grafana moved", p, err, &want)

	if err := s.StartRun(context.Background(), &Run{ID: grafana.ID, State: RunRunning, Keys: grafana.Keys(), Started: t0}); err != nil {
		t.Fatal(err)
	}
	if got := rawRecord(t, s, bucketPlanBodies, grafana.ID); !bytes.Equal(got, grafanaBody) {
		t.Errorf("grafana's body changed when its run started")
	}

	// A step that reads only the state moves the record too.
	jenkinsBody := inline(jenkins.ID)
	if err := s.SetPreview(context.Background(), jenkins.ID, jenkins.Preview); err != nil {
		t.Fatal(err)
	}
	if got := rawRecord(t, s, bucketPlanBodies, jenkins.ID); !bytes.Equal(got, jenkinsBody) {
		t.Errorf("jenkins' body after SetPreview moved it differs from its inline bytes")
	}
	p, err = s.Plan(context.Background(), jenkins.ID)
	same("jenkins moved", p, err, jenkins)

	// And all of it survives a reopen.
	s.Close()
	s2, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	p, err = s2.Plan(context.Background(), next.ID)
	same("nextcloud after reopen", p, err, next)
	p, err = s2.Plan(context.Background(), jenkins.ID)
	same("jenkins after reopen", p, err, jenkins)
	want.RunStarted = t0
	p, err = s2.Plan(context.Background(), grafana.ID)
	same("grafana after reopen", p, err, &want)
}

// The same on both backends, with plans written as layout 1 wrote them (the whole Plan as
// JSON under its id, as `eos store migrate` copies them into PostgreSQL).
func TestPlansWrittenInLayout1AreReadAndMoved(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		want := bigPlan("old")
		if err := s.update(context.Background(), func(tx txn) error {
			if err := put(tx, bucketPlans, want.ID, want); err != nil {
				return err
			}
			return tx.bucket(bucketPosts).Put([]byte(postKey(want.Preview)), []byte(want.ID))
		}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ { // the second read is not served from anything the first kept wrongly
			p, err := s.PlanByPost(context.Background(), want.Preview)
			if err != nil || !reflect.DeepEqual(p, want) {
				t.Fatalf("layout-1 plan read = %+v, %v\nwant %+v", p, err, want)
			}
		}
		got, err := s.UpdatePlan(context.Background(), "old", func(p *Plan) error { p.Needed = 2; return nil })
		if err != nil {
			t.Fatal(err)
		}
		want.Needed = 2
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("UpdatePlan of a layout-1 plan = %+v\nwant %+v", got, want)
		}
		if rawRecord(t, s, bucketPlanBodies, "old") == nil {
			t.Fatal("a written layout-1 plan has no body record")
		}
		p, err := s.Plan(context.Background(), "old")
		if err != nil || !reflect.DeepEqual(p, want) {
			t.Fatalf("moved plan read = %+v, %v\nwant %+v", p, err, want)
		}
	})
}

func unzip(t *testing.T, from, to string) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, z); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// An Eos from before plans kept their body apart would read their records without a spec: on
// PostgreSQL, where replicas of two versions may meet, it refuses the schema that says so.
func TestEosBeforePlanBodiesRefusesTheirSchema(t *testing.T) {
	dsn := pgtest.Database(t)
	s, err := OpenPostgres(context.Background(), dsn, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	defer func(all []migrationStep) { migrations = all }(migrations)
	for i, m := range migrations {
		if m.name == "plans keep their body apart" {
			migrations = migrations[:i] // what the Eos before knew
			break
		}
	}
	if SchemaVersion() != 1 {
		t.Fatalf("the Eos before plan bodies knows schema %d, want 1", SchemaVersion())
	}
	_, err = OpenPostgres(context.Background(), dsn, PostgresOptions{})
	if err == nil || !strings.Contains(err.Error(), "newer than this Eos knows") {
		t.Fatalf("an Eos before plan bodies opened the store: %v", err)
	}
}
