package executor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
)

// RollbackPolicy says what the runner does when a layer fails.
type RollbackPolicy string

const (
	// RollbackFailed rolls back only the layer that failed (the default): Terraform removes
	// what it created or re-applies the previous approved spec; earlier layers are kept, since
	// host configuration is safe to re-apply.
	RollbackFailed RollbackPolicy = "failed-layer"
	// RollbackAll rolls back the failed layer and then every earlier layer, in reverse order.
	RollbackAll RollbackPolicy = "all"
	// RollbackNone leaves everything as the failure left it, for a person to inspect.
	RollbackNone RollbackPolicy = "none"
)

// ParseRollbackPolicy accepts the policy names used in the configuration.
func ParseRollbackPolicy(s string) (RollbackPolicy, error) {
	switch p := RollbackPolicy(s); p {
	case RollbackFailed, RollbackAll, RollbackNone:
		return p, nil
	case "":
		return RollbackFailed, nil
	}
	return "", fmt.Errorf("unknown rollback policy %q (want %s, %s or %s)", s, RollbackFailed, RollbackAll, RollbackNone)
}

// RunnerConfig configures a Runner.
type RunnerConfig struct {
	// Layers are the configured layers; a layer missing here is "not configured" and skipped
	// visibly in previews and results.
	Layers []Layer
	// Secrets, when set, generates the secrets specs need before any layer applies.
	Secrets Secrets
	// Rollback is the policy on failure; empty means RollbackFailed.
	Rollback RollbackPolicy
	// LayerTimeout bounds one layer's apply; zero means 30 minutes.
	LayerTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Runner plans and applies specs layer by layer in the fixed order Salt → Terraform → Nomad,
// reversed for a destroy (RunOrder).
type Runner struct {
	secrets Secrets
	layers  map[LayerName]Layer
	policy  RollbackPolicy
	timeout time.Duration
	now     func() time.Time
}

// NewRunner checks the configuration: each layer at most once, a known policy.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	r := &Runner{secrets: cfg.Secrets, layers: map[LayerName]Layer{}, policy: cfg.Rollback, timeout: cfg.LayerTimeout, now: cfg.Now}
	for _, l := range cfg.Layers {
		if _, dup := r.layers[l.Name()]; dup {
			return nil, fmt.Errorf("layer %s configured twice", l.Name())
		}
		r.layers[l.Name()] = l
	}
	if _, err := ParseRollbackPolicy(string(r.policy)); err != nil {
		return nil, err
	}
	if r.policy == "" {
		r.policy = RollbackFailed
	}
	if r.timeout == 0 {
		r.timeout = 30 * time.Minute
	}
	if r.now == nil {
		r.now = time.Now
	}
	return r, nil
}

// LayerTimeout is the bound on one layer's apply.
func (r *Runner) LayerTimeout() time.Duration { return r.timeout }

// Configured reports whether layer name has a connection.
func (r *Runner) Configured(name LayerName) bool { _, ok := r.layers[name]; return ok }

// Plan plans every layer, and the secrets, side by side: their plans do not depend on one
// another, so a preview takes as long as the slowest layer, not their sum. The plan's layers
// are in the order Apply runs them (RunOrder), whatever order the plans finish in, and previews
// and progress posts show them so; the plan and its hash are the same as planning one layer
// after another. A layer the spec does not use is PlanNothing; a layer the spec uses but Eos
// has no connection to is PlanNotConfigured. An error from any layer's Plan cancels the others
// and fails the whole plan with the first cause: nobody is asked to approve half a picture.
func (r *Runner) Plan(ctx context.Context, spec Spec) (Plan, error) {
	plan := Plan{Spec: spec}
	order := RunOrder(spec)
	plan.Layers = make([]LayerPlan, len(order))
	g, gctx := errgroup.WithContext(ctx)
	for i, name := range order {
		g.Go(func() error {
			lp, err := r.planLayer(gctx, name, spec)
			if err != nil {
				return &LayerError{Layer: name, Err: err}
			}
			plan.Layers[i] = lp
			return nil
		})
	}
	if r.secrets != nil && needsSecrets(spec) {
		g.Go(func() error {
			sp, err := r.secrets.PlanSecrets(gctx, spec)
			if err != nil {
				return fmt.Errorf("Vault: %w", err)
			}
			plan.Secrets = &sp
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Plan{}, err
	}
	var specJSON []byte
	plan.Hash, specJSON = hashPlan(spec, plan.Layers, plan.Secrets)
	if specJSON != nil {
		plan.hashed = &hashedSpec{spec: spec, json: specJSON}
	}
	return plan, nil
}

// SecretsConfigured reports whether a secrets store is configured.
func (r *Runner) SecretsConfigured() bool { return r.secrets != nil }

func needsSecrets(spec Spec) bool {
	for _, u := range spec.Units {
		if len(u.Secrets) > 0 && !u.Destroy {
			return true
		}
	}
	return false
}

func (r *Runner) planLayer(ctx context.Context, name LayerName, spec Spec) (LayerPlan, error) {
	if !spec.Has(name) {
		return LayerPlan{Layer: name, Status: PlanNothing, Summary: "nothing to do"}, nil
	}
	layer, ok := r.layers[name]
	if !ok {
		return LayerPlan{Layer: name, Status: PlanNotConfigured, Summary: "not configured — skipped"}, nil
	}
	lp, err := layer.Plan(ctx, spec)
	if err != nil {
		return LayerPlan{}, err
	}
	lp.Layer = name
	return lp, nil
}

// LayerError is a failure inside one layer.
type LayerError struct {
	Layer LayerName
	Err   error
}

func (e *LayerError) Error() string { return e.Layer.Title() + ": " + e.Err.Error() }
func (e *LayerError) Unwrap() error { return e.Err }

// RunResult is the outcome of applying a plan.
type RunResult struct {
	// Secrets is what the secrets store generated and reused; SecretsError why it failed.
	Secrets      *SecretPlan `json:"secrets,omitempty"`
	SecretsError string      `json:"secrets_error,omitempty"`
	// Purged are the secrets a destroy --purge-secrets deleted.
	Purged []string      `json:"purged,omitempty"`
	Layers []LayerResult `json:"layers"`
	Failed bool          `json:"failed"`
	// Halted is set, with Failed, when a layer stopped for a reason that is not its failure
	// (ResultHalted): nothing was rolled back.
	Halted bool `json:"halted,omitempty"`
	// Unknown is set, with Failed, when Eos could not see how a layer ended (ResultUnknown):
	// nothing was rolled back, and the service needs a drift check once the server is back.
	Unknown bool `json:"unknown,omitempty"`
	// Stopped is set, with Failed, when a stop was asked for (StopWhen) and the run stopped
	// at a safe point: the layers applied before it stay, the later ones are not started, and
	// nothing was rolled back.
	Stopped bool          `json:"stopped,omitempty"`
	Elapsed time.Duration `json:"elapsed"`
}

// ApplyOption changes how one Apply runs.
type ApplyOption func(*applyOptions)

type applyOptions struct {
	stop <-chan struct{}
}

// StopWhen asks Apply to stop at the next safe point once stop is closed. The safe points are
// before each layer that has changes: a layer that is applying is never cut short (that is
// what cancelling ctx does), so what it does is finished and consistent. A stop is not a
// failure: nothing is rolled back, the layers after it are not started, and the result says
// Stopped.
func StopWhen(stop <-chan struct{}) ApplyOption {
	return func(o *applyOptions) { o.stop = stop }
}

func (o applyOptions) stopped() bool {
	select {
	case <-o.stop:
		return true
	default:
		return false
	}
}

// Apply carries out plan layer by layer, reporting progress. It stops at the first layer that
// fails, rolls back by policy (previous is the last approved spec of the same target, or
// nil), and marks the later layers not started. Cancelling ctx stops the current layer; the
// result then says cancelled. A layer that halts (returns a HaltError) stops the run with no
// rollback at all, whatever the policy; so does a stop asked for with StopWhen. obs hears
// the progress and the layers' own output; nil hears nothing. Each layer is handed obs
// itself (a rollback's with its events marked), never anything in its context.
func (r *Runner) Apply(ctx context.Context, plan Plan, previous *Spec, obs Observer, opts ...ApplyOption) RunResult {
	start := r.now()
	obs = nonEmpty{Heard(obs)}
	var o applyOptions
	for _, opt := range opts {
		opt(&o)
	}
	var res RunResult
	if r.secrets != nil && needsSecrets(plan.Spec) {
		sp, err := r.secrets.EnsureSecrets(ctx, plan.Spec)
		if err != nil {
			res.Failed, res.SecretsError = true, "Vault: "+err.Error()
		} else {
			res.Secrets = &sp
		}
	}
	var applied []Layer
	for i, lp := range plan.Layers {
		layer, ok := r.layers[lp.Layer]
		idle := !ok || lp.Status != PlanChanges
		switch {
		case res.Failed && !idle:
			res.Layers = append(res.Layers, LayerResult{Layer: lp.Layer, Status: ResultNotStarted})
			continue
		case idle:
			// After a failure or a stop too: a layer with nothing to do (not configured, no
			// changes) was not kept from anything, and "not started" would say it was.
			res.Layers = append(res.Layers, skipped(lp))
			continue
		}
		if o.stopped() {
			res.Failed, res.Stopped = true, true
			res.Layers = append(res.Layers, LayerResult{Layer: lp.Layer, Status: ResultNotStarted})
			continue
		}
		lr := r.applyLayer(ctx, layer, plan.Spec, lp, obs)
		res.Layers = append(res.Layers, lr)
		if lr.Status == ResultOK {
			applied = append(applied, layer)
			continue
		}
		res.Failed = true
		res.Halted = lr.Status == ResultHalted
		res.Unknown = lr.Status == ResultUnknown
		if lr.Status != ResultCancelled && lr.Status != ResultHalted && lr.Status != ResultUnknown {
			r.rollback(ctx, plan.Spec, previous, &res.Layers[i], applied, obs)
		}
	}
	if !res.Failed && plan.Spec.PurgeSecrets && r.secrets != nil {
		purged, err := r.secrets.PurgeSecrets(ctx, plan.Spec)
		switch {
		case err != nil:
			res.SecretsError = "Vault: purging secrets: " + err.Error()
		default:
			res.Purged = purged
		}
	}
	res.Elapsed = r.now().Sub(start)
	return res
}

func skipped(lp LayerPlan) LayerResult {
	summary := "no changes"
	switch lp.Status {
	case PlanNotConfigured:
		summary = "not configured"
	case PlanNothing:
		summary = "nothing to do"
	case PlanNoChanges:
		if lp.Kept != "" {
			summary = "kept" // a destroy leaves it in place, as the preview said
		}
	}
	return LayerResult{Layer: lp.Layer, Status: ResultSkipped, Summary: summary}
}

func (r *Runner) applyLayer(ctx context.Context, layer Layer, spec Spec, lp LayerPlan, obs Observer) LayerResult {
	lctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	start := r.now()
	lr, err := layer.Apply(lctx, spec, lp, obs)
	lr.Layer = layer.Name()
	lr.Elapsed = r.now().Sub(start)
	var halt *HaltError
	var unknown *UnknownError
	switch {
	case err == nil && lr.Status == "":
		lr.Status = ResultOK
	case errors.As(err, &unknown):
		// Before the deadline and cancellation cases: a layer that lost its server reports
		// why it cannot tell, whatever ended its wait.
		lr.Status, lr.Error, lr.Check = ResultUnknown, unknown.Message(), unknown.Check
		lr.Rollback = "nothing was rolled back: Eos did not see how it ended"
	case err != nil && ctx.Err() != nil:
		lr.Status = ResultCancelled
		lr.Error = "cancelled: " + context.Cause(ctx).Error()
	case errors.As(err, &halt):
		lr.Status, lr.Error, lr.Rollback = ResultHalted, halt.Message(), "nothing was rolled back"
	case err != nil && errors.Is(lctx.Err(), context.DeadlineExceeded):
		lr.Status = ResultFailed
		lr.Error = fmt.Sprintf("timed out after %s", r.timeout)
	case err != nil:
		lr.Status = ResultFailed
		if lr.Error == "" {
			lr.Error = err.Error()
		}
	}
	if lr.Status == ResultFailed || lr.Status == ResultUnknown {
		lr.Cause = causeOf(lr, err)
	}
	return lr
}

// rollback undoes the failed layer and, under RollbackAll, the layers applied before it.
func (r *Runner) rollback(ctx context.Context, spec Spec, previous *Spec, failed *LayerResult, applied []Layer, obs Observer) {
	if r.policy == RollbackNone {
		failed.Rollback = "not rolled back (policy: none)"
		return
	}
	layer := r.layers[failed.Layer]
	failed.Rollback, failed.RolledBack = r.rollbackLayer(ctx, layer, spec, previous, obs)
	if r.policy != RollbackAll {
		return
	}
	for i := len(applied) - 1; i >= 0; i-- {
		note, _ := r.rollbackLayer(ctx, applied[i], spec, previous, obs)
		failed.Rollback += "; " + applied[i].Name().Title() + ": " + note
	}
}

// rollbackLayer rolls one layer back and says what it did, and whether it succeeded.
func (r *Runner) rollbackLayer(ctx context.Context, layer Layer, spec Spec, previous *Spec, obs Observer) (string, bool) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.timeout)
	defer cancel()
	note, err := layer.Rollback(rctx, spec, previous, undoing{obs})
	if err != nil {
		return "rollback failed: " + err.Error(), false
	}
	return note, true
}
