package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// bigPlan is a plan whose body has every kind of value a real one has: module files, a state
// text, typed pillar and variables (nested maps and lists in interface values), layer state,
// secrets.
func bigPlan(id string) *Plan {
	p := samplePlan(id)
	p.Preview = adapters.PostRef{Platform: "console", Channel: "local", ID: "post-" + id}
	p.Plan = executor.Plan{
		Spec: executor.Spec{Verb: "create", Target: "grafana", Env: "local", Asked: []string{"--port 3001"},
			Units: []executor.Unit{{
				Service: "grafana", Values: map[string]string{"port": "3001"}, Secrets: []string{"admin_password"},
				Salt: &executor.SaltPart{State: "grafana.sls", Text: strings.Repeat("grafana:\n  pkg.installed: []\n", 40),
					Pillar: map[string]any{"port": 3001.0, "users": []any{"alice", map[string]any{"name": "bob"}}, "tls": true}},
				Terraform: &executor.TerraformPart{Files: map[string]string{"main.tf": strings.Repeat(`resource "terraform_data" "x" {}`+"\n", 60)},
					Vars: map[string]any{"size": "small", "tags": map[string]any{"env": "local"}}},
				Nomad: &executor.NomadPart{Template: strings.Repeat("job \"grafana\" {}\n", 100), Vars: map[string]any{"count": 1.0}},
			}}},
		Layers: []executor.LayerPlan{{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+1 ~0 −0",
			Changes: []executor.Change{{Unit: "grafana", Action: executor.Create, Address: "terraform_data.x"}},
			Digest:  "create terraform_data.x", State: json.RawMessage(`{"plan_file":"a.tfplan"}`)}},
		Secrets: &executor.SecretPlan{Create: []string{"secret/eos/local/grafana"}},
		Hash:    "h1",
	}
	return p
}

// rawRecord reads key of bucket as stored.
func rawRecord(t *testing.T, s *Store, b []byte, key string) []byte {
	t.Helper()
	var raw []byte
	if err := s.view(context.Background(), func(tx txn) error { raw = bytes.Clone(tx.bucket(b).Get([]byte(key))); return nil }); err != nil {
		t.Fatal(err)
	}
	return raw
}

// A step that changes only a plan's state (its preview post, an approval, its run's start and
// outcome) writes the small state record and leaves the body as it was written: what makes a
// burst of conversations cheap. The body is still read whole with the plan.
func TestStateStepsLeaveThePlanBodyAsWritten(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		want := bigPlan("p1")
		if err := s.CreatePlan(context.Background(), bigPlan("p1")); err != nil {
			t.Fatal(err)
		}
		body := rawRecord(t, s, bucketPlanBodies, "p1")
		if len(body) < 4000 {
			t.Fatalf("the body is stored apart: %d bytes", len(body))
		}
		if err := s.SetPreview(context.Background(), "p1", adapters.PostRef{Platform: "console", Channel: "local", ID: "again"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error {
			p.State, p.Approvals = PlanApproved, []Vote{{User: "bob"}}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.StartRun(context.Background(), &Run{ID: "p1", State: RunRunning, Keys: want.Keys(), Started: t0}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FinishRun(context.Background(), "p1", RunDone, nil, t0.Add(time.Minute), nil); err != nil {
			t.Fatal(err)
		}
		if got := rawRecord(t, s, bucketPlanBodies, "p1"); !bytes.Equal(got, body) {
			t.Errorf("the body changed though no step changed it:\n%s\nwas\n%s", got, body)
		}
		head := rawRecord(t, s, bucketPlans, "p1")
		if len(head) > 1000 || bytes.Contains(head, []byte("terraform_data")) {
			t.Errorf("the state record carries the body (%d bytes): %s", len(head), head)
		}
		got, err := s.Plan(context.Background(), "p1")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Plan, want.Plan) {
			t.Errorf("body read back = %+v\nwant %+v", got.Plan, want.Plan)
		}
		if got.State != PlanApproved || got.Outcome == nil || got.Outcome.State != RunDone || got.Preview.ID != "again" {
			t.Errorf("state read back = %+v", got)
		}
	})
}

// Each read hands out its own copy of the body, as when every read decoded the record: a
// caller changing what it read (every map, list and pointer in it) changes nothing the next
// reader sees, though the store keeps the body it decoded.
func TestReadPlanBodyIsTheCallersOwnCopy(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		if err := s.CreatePlan(context.Background(), bigPlan("p1")); err != nil {
			t.Fatal(err)
		}
		want := bigPlan("p1").Plan
		for round := 0; round < 3; round++ {
			var got []*Plan
			p, err := s.Plan(context.Background(), "p1")
			if err != nil {
				t.Fatal(err)
			}
			byPost, err := s.PlanByPost(context.Background(), p.Preview)
			if err != nil {
				t.Fatal(err)
			}
			all, err := s.Plans(context.Background(), func(*Plan) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p, byPost, all[0])
			for _, g := range got {
				if !reflect.DeepEqual(g.Plan, want) {
					t.Fatalf("round %d: body read = %+v\nwant %+v", round, g.Plan, want)
				}
				scribble(reflect.ValueOf(&g.Plan).Elem())
			}
			// UpdatePlan's fn gets a copy too; scribbling in it and then failing writes nothing.
			if _, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error {
				scribble(reflect.ValueOf(&p.Plan).Elem())
				return errTest
			}); !errors.Is(err, errTest) {
				t.Fatalf("UpdatePlan = %v, want its fn's error", err)
			}
		}
	})
}

var errTest = &testError{}

type testError struct{}

func (*testError) Error() string { return "refused by the test" }

// scribble changes everything a caller could reach in v: every string, number and bool set
// afresh, every map and list entry changed in place.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface {
				c := reflect.New(v.Elem().Type()).Elem()
				c.Set(v.Elem())
				scribble(c)
				if v.CanSet() {
					v.Set(c)
				}
				return
			}
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			scribble(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scribble(e)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("scribbled")
		}
	case reflect.Float64, reflect.Float32:
		v.SetFloat(-1)
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Uint8:
		if v.CanInt() {
			v.SetInt(7)
		} else {
			v.SetUint(7)
		}
	case reflect.Bool:
		v.SetBool(!v.Bool())
	}
}

// A change to the body in UpdatePlan is written (a new version of it), and every later read
// sees it, on this Store and on another one sharing the database.
func TestUpdatePlanThatChangesTheBodyWritesIt(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		if err := s.CreatePlan(context.Background(), bigPlan("p1")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Plan(context.Background(), "p1"); err != nil { // decoded and kept
			t.Fatal(err)
		}
		before := rawRecord(t, s, bucketPlanBodies, "p1")
		if _, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error {
			p.Plan.Spec.Units[0].Values["port"] = "3002"
			p.Plan.Hash = "h2"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(before, rawRecord(t, s, bucketPlanBodies, "p1")) {
			t.Fatal("the changed body was not written")
		}
		check := func(s *Store, who string) {
			t.Helper()
			p, err := s.Plan(context.Background(), "p1")
			if err != nil {
				t.Fatal(err)
			}
			if p.Plan.Hash != "h2" || p.Plan.Spec.Units[0].Values["port"] != "3002" {
				t.Errorf("%s reads hash %s, port %s after the change", who, p.Plan.Hash, p.Plan.Spec.Units[0].Values["port"])
			}
		}
		check(s, "the same store")
		if s.Kind() == "postgres" {
			// A replica that read the old version before: its next read sees the new one.
			other, err := reopen()
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			check(other, "another replica")
			if _, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error { p.Plan.Hash = "h3"; return nil }); err != nil {
				t.Fatal(err)
			}
			if p, err := other.Plan(context.Background(), "p1"); err != nil || p.Plan.Hash != "h3" {
				t.Errorf("another replica reads %v, %v after a second change; want hash h3", p, err)
			}
			return
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		check(s2, "the store reopened")
	})
}

// PlanState answers from the state record alone: it works without reading the body (here
// removed, which Plan reports), and says ErrNotFound for a plan that does not exist.
func TestPlanStateReadsTheStateAlone(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		p := bigPlan("p1")
		p.State = PlanCancelled
		if err := s.CreatePlan(context.Background(), p); err != nil { // never read whole, so its body is not kept
			t.Fatal(err)
		}
		if err := s.update(context.Background(), func(tx txn) error { return tx.bucket(bucketPlanBodies).Delete([]byte("p1")) }); err != nil {
			t.Fatal(err)
		}
		if st, err := s.PlanState(context.Background(), "p1"); err != nil || st != PlanCancelled {
			t.Errorf("PlanState = %s, %v; want cancelled", st, err)
		}
		if _, err := s.Plan(context.Background(), "p1"); err == nil || !strings.Contains(err.Error(), "body of plan p1") {
			t.Errorf("Plan without its body record = %v, want an error naming it", err)
		}
		if _, err := s.PlanState(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("PlanState of a missing plan = %v, want ErrNotFound", err)
		}
	})
}

// The bodies the store keeps share their long texts: plans of one blueprint carry the same
// module files, and a thousand open plans must not hold a thousand copies of them.
func TestKeptBodiesShareTheirTexts(t *testing.T) {
	s, _ := freshBolt(t)
	for _, id := range []string{"p1", "p2"} {
		if err := s.CreatePlan(context.Background(), bigPlan(id)); err != nil {
			t.Fatal(err)
		}
	}
	a, err := s.Plan(context.Background(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	// A collection between the two reads, as a busy process has: the shared copy must outlive
	// it while a cached body holds it.
	runtime.GC()
	b, err := s.Plan(context.Background(), "p2")
	if err != nil {
		t.Fatal(err)
	}
	ta, tb := a.Plan.Spec.Units[0].Terraform.Files["main.tf"], b.Plan.Spec.Units[0].Terraform.Files["main.tf"]
	na, nb := a.Plan.Spec.Units[0].Nomad.Template, b.Plan.Spec.Units[0].Nomad.Template
	if ta != tb || len(ta) < internFrom || unsafe.StringData(ta) != unsafe.StringData(tb) || unsafe.StringData(na) != unsafe.StringData(nb) {
		t.Errorf("two plans' bodies hold their own copies of the same module file and job template")
	}
	if want := bigPlan("p1").Plan; !reflect.DeepEqual(a.Plan, want) {
		t.Errorf("body read = %+v\nwant %+v", a.Plan, want)
	}
}

// CreatePlan encodes a new plan before its transaction (so a burst's encoding is not done in
// bbolt's one writer, one plan after another); what it stores must be, byte for byte, what
// writing the plan inside the transaction stores, on both backends.
func TestCreatePlanStoresWhatWritingInTheTransactionStores(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		if err := s.CreatePlan(context.Background(), bigPlan("p1")); err != nil {
			t.Fatal(err)
		}
		if err := s.update(context.Background(), func(tx txn) error { return putStored(tx, &storedPlan{Plan: bigPlan("p2")}) }); err != nil {
			t.Fatal(err)
		}
		for _, b := range [][]byte{bucketPlans, bucketPlanBodies} {
			got, want := rawRecord(t, s, b, "p1"), rawRecord(t, s, b, "p2")
			want = bytes.ReplaceAll(want, []byte(`"p2"`), []byte(`"p1"`))
			want = bytes.ReplaceAll(want, []byte(`post-p2`), []byte(`post-p1`))
			if len(got) == 0 || !bytes.Equal(got, want) {
				t.Errorf("%s: CreatePlan stored\n%s\nwriting in the transaction stores\n%s", b, got, want)
			}
		}
		open := rawRecord(t, s, bucketOpenPlans, "p1")
		if string(open) != string(PlanPending) {
			t.Errorf("open plans index: %q, want %q", open, PlanPending)
		}
	})
}

// The preview learns from recording its post whether the plan changed before (a cancel from
// another thread, which could not edit a post it did not know), with no read of its own.
func TestRecordPreviewSaysTheStateItRecordedIn(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		p := bigPlan("p1")
		p.Preview = adapters.PostRef{}
		if err := s.CreatePlan(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error { p.State = PlanCancelled; return nil }); err != nil {
			t.Fatal(err)
		}
		ref := adapters.PostRef{Platform: "console", Channel: "local", ID: "9"}
		state, err := s.RecordPreview(context.Background(), "p1", ref)
		if err != nil || state != PlanCancelled {
			t.Errorf("RecordPreview: %q, %v; want %q", state, err, PlanCancelled)
		}
		if got, err := s.PlanByPost(context.Background(), ref); err != nil || got.ID != "p1" || got.Preview != ref {
			t.Errorf("the post was not recorded: %+v, %v", got, err)
		}
		if _, err := s.RecordPreview(context.Background(), "nope", ref); !errors.Is(err, ErrNotFound) {
			t.Errorf("RecordPreview of no plan: %v, want ErrNotFound", err)
		}
	})
}
