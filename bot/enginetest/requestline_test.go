package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// A value an operation's blueprint does not accept is answered in the channel, naming the
// argument and what it accepts, and changes nothing: no plan, no lock, no request in the audit.
func TestOperationValueOutsideItsPatternChangesNothing(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	cases := []struct{ say, want string }{ // the value always starts at column 17, or 31 after --vg
		{"@eos resize lvm ../../../../../etc/cron.d/evil +1G",
			`NAME "../../../../../etc/cron.d/evil" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`},
		{"@eos resize lvm data +1G --vg ..", `--vg ".." does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`},
		{"@eos resize lvm '-rf' +1G", `NAME "-rf" does not match the pattern`},
		{"@eos resize lvm 'd\u0430ta' +1G on node1", `NAME "d\u0430ta" does not match the pattern`},
		{"@eos resize lvm 'data\u202egpj' +1G", `NAME: "data\u202egpj" holds a control or invisible character (U+202E): type printed text only`},
	}
	for _, tc := range cases {
		after := h.Last()
		h.Say("alice", tc.say)
		col := "^ column 17"
		if strings.Contains(tc.say, "--vg") {
			col = "^ column 31"
		}
		h.WaitText(after, tc.want, col, "@eos help lvm lists its arguments, what each accepts, and its flags")
	}
	h.Idle()
	if plans, err := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); err != nil || len(plans) != 0 {
		t.Errorf("plans = %d (%v), want none", len(plans), err)
	}
	if locks, err := h.Store.Locks(context.Background()); err != nil || len(locks) != 0 {
		t.Errorf("locks = %v (%v), want none", locks, err)
	}
	requests, err := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.Kind == "request" || e.PlanID != "" })
	if err != nil || len(requests) != 0 {
		t.Errorf("audit holds %d plan entries (%v), want none: %+v", len(requests), err, requests)
	}
}

// The preview's first line repeats every argument and flag the request set, for services and
// operations alike, so the approver sees what the layers are given.
func TestPreviewHeadlineShowsWhatWasAsked(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{instantLayer{executor.Salt}}}) // resize lvm runs on Salt
	cases := []struct{ say, want string }{
		{"@eos resize lvm data-nextcloud +50G on node1", "resize lvm data-nextcloud +50G on node1 in local · asked by @alice"},
		{"@eos resize lvm data 100GiB --vg vg_data.1 in local", "resize lvm data 100GiB --vg vg_data.1 in local · asked by @alice"},
		{"@eos create grafana --port 3002", "create grafana --port 3002 in local · asked by @alice"},
		{"@eos create jenkins --storage 300G --executors 4", "create jenkins --storage 300G --executors 4 in local · asked by @alice"},
		{"@eos create nextcloud with sso --domain=Files.Example.ORG", "create nextcloud --sso --domain files.example.org in local · asked by @alice"},
		{"@eos create nextcloud --no-distributed-storage --storage 200G", "create nextcloud --no-distributed-storage --storage 200G in local · asked by @alice"},
		{"@eos plan grafana --port 3003", "create grafana --port 3003 in local · asked by @alice"},
	}
	for _, tc := range cases {
		after := h.Last()
		h.Say("alice", tc.say)
		p := h.WaitPost(after, func(p console.Post) bool { return strings.HasPrefix(p.Text, "Plan ") })
		first, _, _ := strings.Cut(p.Text, "\n")
		if !strings.HasSuffix(first, " · "+tc.want) {
			t.Errorf("%s: first line\n got: %s\nwant: Plan ID · %s", tc.say, first, tc.want)
		}
	}
	// A preview-only plan says how to ask for it, repeating the whole request.
	after := h.Last()
	h.Say("alice", "@eos plan jenkins --storage 300G in local")
	p := h.WaitText(after, "Preview only")
	if want := `ask without "plan": @eos create jenkins --storage 300G in local`; !strings.Contains(p.Text, want) {
		t.Errorf("preview-only answer lacks %q:\n%s", want, p.Text)
	}
}

// An update, a rollback and a reconcile say, in the preview's first lines and in `plan ID full`,
// every declared value they change, old → new, and which layers get it; a reconcile changes
// none and says none.
func TestPreviewShowsDeclaredValuesThatChange(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana --port 3001")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	up, uid := eostest.Preview(t, h, "alice", "@eos update grafana --port 3002 --domain dash.example.org")
	// What can hurt comes first (the domain's DNS record is replaced), then the values, then
	// the table.
	want := "\n± replaces grafana eoslab_dns_record.main — forced by zone, name\n" +
		"Declared values: --domain default → dash.example.org (Salt, Terraform, Nomad) · --port 3001 → 3002 (Nomad)\nlayer "
	if !strings.Contains(up.Text, want) {
		t.Errorf("update preview lacks, after its heading,%s:\n%s", want, up.Text)
	}
	// eos plan says the same of the same request.
	if doc, err := h.Engine.Preview(t.Context(), "update grafana --port 3002 --domain dash.example.org", "alice"); err != nil || !strings.Contains(doc.Plain(), want) {
		t.Errorf("eos plan's preview of the update (%v) lacks, after its heading,%s:\n%s", err, want, doc.Plain())
	}
	after := h.Last()
	h.Say("alice", "@eos plan "+uid+" full")
	if full := h.WaitText(after, "Plan "+uid+" · update grafana"); !strings.Contains(full.Text, "--port 3001 → 3002 (Nomad)") {
		t.Errorf("plan %s full lacks the value change:\n%s", uid, full.Text)
	}
	h.React("bob", up.ID, "+1")
	h.WaitText(up.ID, "Run "+uid+" · done in")

	rb, _ := eostest.Preview(t, h, "alice", "@eos rollback grafana")
	if want := "Declared values: --domain dash.example.org → default (Salt, Terraform, Nomad) · --port 3002 → 3001 (Nomad)"; !strings.Contains(rb.Text, want) {
		t.Errorf("rollback preview lacks %q:\n%s", want, rb.Text)
	}
	resizeServer(t, h, "proxy-grafana-local", "xlarge") // drift, so the reconcile plans something
	rc, _ := eostest.Preview(t, h, "alice", "@eos reconcile grafana")
	if strings.Contains(rc.Text, "Declared values") {
		t.Errorf("a reconcile changes no declared value, yet its preview says:\n%s", rc.Text)
	}
}
