package executor

import (
	"context"
	"encoding/json"
	"time"
)

// Layer is one system Eos drives. Implementations live in sub-packages and are safe for
// concurrent use on different unit keys; the engine never runs two applies on one key at once.
type Layer interface {
	// Name is the layer's place in the run order.
	Name() LayerName
	// Plan works out what applying spec would change, without changing anything.
	Plan(ctx context.Context, spec Spec) (LayerPlan, error)
	// Apply carries out exactly plan (made by Plan from spec), telling obs (which may be nil)
	// its progress and its own output lines as it goes. A failure is returned both as a LayerResult (what was done, what failed) and an error.
	Apply(ctx context.Context, spec Spec, plan LayerPlan, obs Observer) (LayerResult, error)
	// Drift compares the real world with spec, the declared state.
	Drift(ctx context.Context, spec Spec) (LayerDrift, error)
	// Rollback undoes a failed or partial apply of spec: it re-applies previous, the last
	// approved spec, or, when there is none, removes what spec created. It returns a sentence
	// for the person reading the result ("nothing created by Terraform remains"). obs (which
	// may be nil) hears its steps as Apply's would.
	Rollback(ctx context.Context, spec Spec, previous *Spec, obs Observer) (string, error)
}

// PlanStatus says what a layer's plan amounts to.
type PlanStatus string

const (
	// PlanChanges means applying will change something.
	PlanChanges PlanStatus = "changes"
	// PlanNoChanges means the layer already matches the spec.
	PlanNoChanges PlanStatus = "no-changes"
	// PlanNothing means the spec has no part for this layer.
	PlanNothing PlanStatus = "nothing"
	// PlanNotConfigured means the spec has a part but Eos has no connection to the system;
	// the layer is skipped, and the preview says so.
	PlanNotConfigured PlanStatus = "not-configured"
)

// Action is what happens to one resource, state or task group.
type Action string

const (
	Create  Action = "create"
	Update  Action = "update"
	Delete  Action = "delete"
	Replace Action = "replace"
	Read    Action = "read"
	NoOp    Action = "no-op"
)

// Change is one resource (Terraform), state (Salt) or task group (Nomad) that will change.
type Change struct {
	Unit    string `json:"unit"`
	Action  Action `json:"action"`
	Address string `json:"address"`
	// Detail is a short human description ("size small → large"); sensitive values are
	// already redacted.
	Detail string `json:"detail,omitempty"`
	// Attrs is every changed attribute, one a line (`size "small" → "large"`), whole, when
	// Detail leaves something out (names only the first few, shortens a long value); empty
	// when Detail says it all. Sensitive values are redacted here too. The full plan shows it.
	Attrs string `json:"attrs,omitempty"`
	// Diff is the unified diff of a file whose content would change (a Salt file.managed),
	// with every line that may hold a secret masked (executor/salt's rule); the full plan,
	// the drift answer and the status page show it. Empty for everything else.
	Diff string `json:"diff,omitempty"`
	// Forces names what makes a replacement necessary, comma-separated: the attribute paths
	// Terraform cannot update in place ("image"), the fields of a destructive Nomad update.
	// On an update it says how the change disrupts what runs, and why: a Salt state that
	// would restart a service ("service nginx would restart (watch: file
	// /etc/nginx/nginx.conf)") or change a mount. Empty otherwise. (A string, not a list, so
	// that Change stays comparable.)
	Forces string `json:"forces,omitempty"`
	// Reason is why the layer chose the action, in a few words ("cannot update in place",
	// "tainted"); empty when the action is simply what the spec asks.
	Reason string `json:"reason,omitempty"`
	// DataLoss marks the deletion or replacement of something the blueprint says holds data
	// (a volume, a database).
	DataLoss bool `json:"data_loss,omitempty"`
	// Size is how much data it holds ("200G"), when the plan says; only with DataLoss.
	Size string `json:"size,omitempty"`
	// Salt and Nomad are the change as data, for the policy set's rules (changedata.go): a
	// Salt state's, a Nomad group's; nil otherwise.
	Salt  *SaltState  `json:"salt,omitempty"`
	Nomad *NomadGroup `json:"nomad,omitempty"`
}

// LayerPlan is one layer's plan.
type LayerPlan struct {
	Layer  LayerName  `json:"layer"`
	Status PlanStatus `json:"status"`
	// Summary is the preview's one-line description ("+3 ~0 −0: server proxy-nextcloud, ...").
	Summary string   `json:"summary"`
	Changes []Change `json:"changes,omitempty"`
	// Digest is a stable text of exactly what will be done; it goes into the plan hash, so two
	// plans with equal digests do the same thing.
	Digest string `json:"digest"`
	// State is layer-private data Apply needs (saved plan files, job modify index). It is
	// stored with the plan but not hashed.
	State json.RawMessage `json:"state,omitempty"`
	// Kept says what a destroy leaves in place, named, and why ("kept on eos-minion:
	// /srv/grafana/grafana.ini — Salt does not undo host configuration; …"); the preview shows
	// it in the layer's row instead of "no changes". Empty otherwise.
	Kept string `json:"kept,omitempty"`
	// Failures are what the layer already knows its apply would fail on, one specific reason
	// each: a Salt state that fails in test mode ("eos-minion: pkg.installed xfsprogs: No
	// package xfsprogs available"), a Nomad group the scheduler cannot place ("job
	// gitea-local: cannot place group app (1 allocation): no node has the docker driver"). A
	// plan with any cannot be approved. Empty when the layer expects its apply to succeed.
	Failures []string `json:"failures,omitempty"`
}

// Counts returns how many changes create, update (in place or by replacement) and delete.
func (p LayerPlan) Counts() (add, change, destroy int) {
	for _, c := range p.Changes {
		switch c.Action {
		case Create:
			add++
		case Update:
			change++
		case Replace:
			add++
			destroy++
		case Delete:
			destroy++
		}
	}
	return
}

// Event is one step of progress while a layer applies.
type Event struct {
	Layer LayerName `json:"layer"`
	Unit  string    `json:"unit,omitempty"`
	// Resource is what the step is about ("terraform_data.server").
	Resource string `json:"resource,omitempty"`
	Action   Action `json:"action,omitempty"`
	// Done and Total count finished steps in this layer; Total is 0 when unknown.
	Done  int `json:"done"`
	Total int `json:"total"`
	// Message is a short human text ("creating", "2/3 allocations healthy").
	Message string `json:"message,omitempty"`
	// Notice marks a Message people should see while the layer waits, beside its count: a
	// server not answering, an allocation failing ("allocation d877c090: task app exited 1
	// (restart 1 of 2)"). An event with a Message and no Resource is one too.
	Notice bool `json:"notice,omitempty"`
	// Rollback marks a step of a rollback after a failure: it undoes, rather than advances,
	// the run. The runner sets it.
	Rollback bool      `json:"rollback,omitempty"`
	Time     time.Time `json:"time"`
}

// ResultStatus is how a layer's apply ended.
type ResultStatus string

const (
	ResultOK         ResultStatus = "ok"
	ResultFailed     ResultStatus = "failed"
	ResultSkipped    ResultStatus = "skipped"     // not configured, or nothing to do
	ResultNotStarted ResultStatus = "not-started" // an earlier layer failed
	ResultRolledBack ResultStatus = "rolled-back"
	ResultCancelled  ResultStatus = "cancelled"
	// ResultHalted means the layer stopped for a reason that is not its own failure (a
	// HaltError: a stale saved plan, a refused lock); nothing was rolled back.
	ResultHalted ResultStatus = "halted"
	// ResultRunning is a layer still applying: the last thing a run recorded before its
	// process died, so the next one can say how far it got.
	ResultRunning ResultStatus = "running"
	// ResultUnknown means Eos could not see how the layer's apply ended (an UnknownError: the
	// server stopped answering after the work was handed over); nothing was rolled back, and
	// Check says how to find out.
	ResultUnknown ResultStatus = "unknown"
)

// LayerResult is how one layer's apply went.
type LayerResult struct {
	Layer  LayerName    `json:"layer"`
	Status ResultStatus `json:"status"`
	// Summary is a short text for the result line ("+3", "2/2 healthy", "not configured").
	Summary string `json:"summary,omitempty"`
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	// Failed is the resource that failed, with the reason in Error.
	Failed *Change `json:"failed,omitempty"`
	Error  string  `json:"error,omitempty"`
	// Rollback says what was done about a failure; RolledBack is whether the failed layer's
	// own rollback succeeded.
	Rollback   string `json:"rollback,omitempty"`
	RolledBack bool   `json:"rolled_back,omitempty"`
	// Check is, for ResultUnknown, the command that tells how the layer ended
	// ("salt-run jobs.lookup_jid J", "nomad deployment status ID").
	Check string `json:"check,omitempty"`
	// Cause is, for a failed or unknown layer, what its error was about (a request, a server
	// that did not answer, a full disk, a timeout), so the advice can fit it. Records from
	// before it existed have none: ClassifyText reads their Error.
	Cause   *Cause        `json:"cause,omitempty"`
	Elapsed time.Duration `json:"elapsed"`
}

// DriftStatus is the outcome of a drift check.
type DriftStatus string

const (
	DriftClean   DriftStatus = "clean"
	DriftDrifted DriftStatus = "drifted"
	// DriftUnknown means the check itself failed; never counted as clean.
	DriftUnknown DriftStatus = "unknown"
	// DriftSkipped means the layer is not configured or the spec has no part for it.
	DriftSkipped DriftStatus = "skipped"
)

// LayerDrift is one layer's drift report for one spec.
type LayerDrift struct {
	Layer   LayerName   `json:"layer"`
	Status  DriftStatus `json:"status"`
	Changes []Change    `json:"changes,omitempty"`
	// Reason explains an unknown or skipped status.
	Reason string `json:"reason,omitempty"`
}

// StatusReporter is implemented by layers that can say what runs now (Nomad: job version,
// allocations, deployment health), for `@eos status`.
type StatusReporter interface {
	// Status describes the spec's units as they run now, in one short line.
	Status(ctx context.Context, spec Spec) (string, error)
}
