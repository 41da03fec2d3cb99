package terraform

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

// run carries out terraform commands for one unit whose directory is locked by the caller.
type run struct {
	l      *Layer
	ud     *unitDir
	redact func(string) string
	// initSkipped is set when prepare found the directory initialised without running init;
	// seededFrom is then the init key of the snapshot it was seeded from, if it was.
	initSkipped bool
	seededFrom  string
}

func (l *Layer) newRun(ud *unitDir, u executor.Unit) *run {
	secrets := append([]string(nil), l.secrets...)
	if u.Terraform != nil {
		for _, name := range u.Secrets {
			if v, ok := u.Terraform.Vars[name]; ok {
				secrets = append(secrets, secretText(v)...)
			}
		}
	}
	return &run{l: l, ud: ud, redact: redactor(secrets)}
}

// secretText is how a secret variable's value could appear in Terraform's messages.
func secretText(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return []string{string(b)}
}

// exec runs one terraform command with the layer's timeout. fn gets the writer for the
// command's -json output; sink, when not nil, sees that output as it streams.
func (r *run) exec(ctx context.Context, op string, sink io.Writer, fn func(ctx context.Context, stdout io.Writer) error) error {
	cctx, cancel := context.WithTimeout(ctx, r.l.timeout)
	defer cancel()
	var out bytes.Buffer
	w := io.Writer(&out)
	if sink != nil {
		w = io.MultiWriter(&out, sink)
	}
	if err := r.commandEnv(op); err != nil {
		return fmt.Errorf("terraform %s for %s: %w", op, r.ud.key, err)
	}
	release, err := r.l.slot(cctx)
	if err != nil {
		return fmt.Errorf("terraform %s for %s: waiting for one of the %d commands that may run at once: %w", op, r.ud.key, cap(r.l.procs), err)
	}
	defer release()
	start := time.Now()
	err = fn(cctx, w)
	// The pg backend refuses every workspace while any workspace is being created (its
	// database-wide creation lock); that lasts a moment, so wait it out rather than fail.
	for attempt := 1; err != nil && attempt < creationRetries && creationLocked(out.Bytes(), err); attempt++ {
		select {
		case <-cctx.Done():
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
			out.Reset()
			err = fn(cctx, w)
		}
	}
	// Terraform's consul backend takes a named workspace's lock when it opens the workspace and
	// gives up at once there, whatever -lock-timeout says: wait as lock_timeout asks.
	if r.l.backend.Type == BackendConsul && r.l.lockWait > 0 {
		deadline := time.Now().Add(r.l.lockWait)
		for err != nil && cctx.Err() == nil && time.Now().Before(deadline) && lockRefused(out.Bytes(), err) {
			select {
			case <-cctx.Done():
			case <-time.After(consulLockPoll):
				out.Reset()
				err = fn(cctx, w)
			}
		}
	}
	var holder *LockInfo
	if err != nil && ctx.Err() == nil {
		holder = r.lockHolder(ctx, out.Bytes(), err)
		if holder == nil && r.l.backend.Type == BackendPg && lockRefused(out.Bytes(), err) {
			// The holder let go between the refusal and the question: try once more.
			out.Reset()
			if err = fn(cctx, w); err != nil {
				holder = r.lockHolder(ctx, out.Bytes(), err)
			}
		}
	}
	// The -json variants of terraform-exec keep the writer for later commands; detach it.
	r.ud.tf.SetStdout(nil)
	log := executor.Log(ctx, r.l.log).With("unit", r.ud.key, "command", op, "elapsed", time.Since(start).Round(time.Millisecond))
	if err != nil {
		ferr := failure(ctx, op, r.ud.key, out.Bytes(), err, r.l.timeout, r.redact)
		if lockRefused(out.Bytes(), err) && ctx.Err() == nil {
			li := LockInfo{}
			if holder != nil {
				li = *holder
			}
			ferr = lockError(op, r.ud.key, li, r.redact)
		}
		var ce *commandError
		if errors.As(ferr, &ce) && ce.cause == nil && needsInit(out.Bytes(), err) {
			ce.cause = errNotInitialised
		}
		// The message is cut for chat; the log keeps every diagnostic whole.
		log.Warn("terraform command failed", "error", ferr.Error(), "diagnostics", r.redact(wholeDiagnostics(out.Bytes(), err.Error())))
		return ferr
	}
	log.Debug("terraform command done")
	return nil
}

// slot waits for a place among the terraform commands that may run at once
// (Config.MaxCommands) and returns what gives it back.
func (l *Layer) slot(ctx context.Context) (func(), error) {
	if l.procs == nil { // a Layer not made by New: no bound
		return func() {}, nil
	}
	select {
	case l.procs <- struct{}{}:
		return func() { <-l.procs }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// creationRetries bounds the attempts of a command refused by the pg backend's creation lock.
const creationRetries = 8

// consulLockPoll is how often a command refused by a consul lock is tried again while
// lock_timeout lasts.
const consulLockPoll = 500 * time.Millisecond

// creationLocked reports whether a command was refused because another process was creating a
// workspace (the pg backend's database-wide creation lock), not because this unit is locked.
func creationLocked(stdout []byte, err error) bool {
	const s = "locked for workspace creation"
	return bytes.Contains(stdout, []byte(s)) || strings.Contains(err.Error(), s)
}

// prepare writes the module and the backend override, makes sure the directory is
// initialised for them and selects the unit's workspace.
func (r *run) prepare(ctx context.Context, part *executor.TerraformPart) error {
	if err := writeModule(r.ud.dir, part); err != nil {
		return fmt.Errorf("preparing %s: %w", r.ud.key, err)
	}
	if err := writeBackendFile(r.ud.dir, &r.l.backend); err != nil {
		return fmt.Errorf("preparing %s: %w", r.ud.key, err)
	}
	if err := r.initialise(ctx, false); err != nil {
		return err
	}
	return r.initialised(ctx, r.selectWorkspace)
}

// selectWorkspace makes the unit's workspace current, creating it in the backend the first
// time. Another process may create it at the same moment; then it is selected.
func (r *run) selectWorkspace(ctx context.Context) error {
	want := r.ud.workspace
	if currentWorkspace(r.ud.dir) == want {
		return nil
	}
	var missing bool
	err := r.exec(ctx, "workspace select", nil, func(ctx context.Context, _ io.Writer) error {
		err := r.ud.tf.WorkspaceSelect(ctx, want)
		if err != nil && strings.Contains(err.Error(), "doesn't exist") {
			missing = true
			return nil
		}
		return err
	})
	if err != nil || !missing {
		return err
	}
	var exists bool
	err = r.exec(ctx, "workspace new", nil, func(ctx context.Context, _ io.Writer) error {
		err := r.ud.tf.WorkspaceNew(ctx, want)
		if err != nil && strings.Contains(err.Error(), "already exists") {
			exists = true
			return nil
		}
		return err
	})
	if err != nil || !exists {
		return err
	}
	return r.exec(ctx, "workspace select", nil, func(ctx context.Context, _ io.Writer) error {
		return r.ud.tf.WorkspaceSelect(ctx, want)
	})
}

// commandEnv gives a command on a remote backend the backend's secret arguments through its
// environment (never its command line), and names a PostgreSQL session after what the command
// does, so another process refused by the lock can tell who holds it.
func (r *run) commandEnv(op string) error {
	if !r.l.backend.remote() {
		return nil
	}
	env := maps.Clone(r.l.env)
	for k, v := range r.l.backend.env(appName(op, r.l.who, os.Getpid())) {
		env[k] = v
	}
	return r.ud.tf.SetEnv(env)
}

// lockHolder is who holds the lock a command was refused. Terraform's lock information names
// the holder for the local, consul and s3 backends; the pg backend's names the refused command
// itself, so PostgreSQL is asked instead.
// It is nil when the command was not refused by the lock or the holder is unknown.
func (r *run) lockHolder(ctx context.Context, stdout []byte, err error) *LockInfo {
	li, locked := lockInfoOf(stdout, err.Error())
	if !locked {
		return nil
	}
	if r.l.backend.Type != BackendPg {
		return &li
	}
	holder, herr := pgLockHolder(ctx, r.l.backend.Config["conn_str"], r.l.backend.pgSchema(), r.ud.workspace)
	if herr != nil {
		executor.Log(ctx, r.l.log).Info("cannot tell who holds the state lock", "unit", r.ud.key, "error", r.redact(herr.Error()))
		return nil
	}
	return &holder
}

// lockRefused reports whether a command failed because it could not take the state lock.
func lockRefused(stdout []byte, err error) bool {
	_, locked := lockInfoOf(stdout, err.Error())
	return locked
}

// plan runs terraform plan and reports whether it found changes (detailed exit code 2).
func (r *run) plan(ctx context.Context, opts []tfexec.PlanOption) (bool, error) {
	var changed bool
	if r.l.lockWait > 0 {
		opts = append(opts, tfexec.LockTimeout(r.l.lockWait.String()))
	}
	err := r.initialised(ctx, func(ctx context.Context) error {
		return r.exec(ctx, "plan", nil, func(ctx context.Context, w io.Writer) error {
			var err error
			changed, err = r.ud.tf.PlanJSON(ctx, w, opts...)
			return err
		})
	})
	return changed, err
}

// show reads a saved plan file as JSON, numbers kept exact.
func (r *run) show(ctx context.Context, file string) (*tfjson.Plan, error) {
	var p *tfjson.Plan
	err := r.exec(ctx, "show", nil, func(ctx context.Context, _ io.Writer) error {
		var err error
		p, err = r.ud.tf.ShowPlanFile(ctx, file, tfexec.JSONNumber(true))
		return err
	})
	return p, err
}

// apply applies the saved plan file, streaming the -json output to sink.
func (r *run) apply(ctx context.Context, file string, sink io.Writer) error {
	return r.exec(ctx, "apply", sink, func(ctx context.Context, w io.Writer) error {
		return r.ud.tf.ApplyJSON(ctx, w, applyOptions(file, r.l.lockWait)...)
	})
}

// planAndShow makes a saved plan in file and reads it back. A plan that changes nothing is
// not read back: it is returned empty. Terraform's exit code 0 means no resource or output
// change, and in refresh-only mode no change to the state either, so show would list nothing
// that the callers keep (no-ops, reads).
func (r *run) planAndShow(ctx context.Context, file string, opts []tfexec.PlanOption) (bool, *tfjson.Plan, error) {
	changed, err := r.plan(ctx, opts)
	if err != nil {
		return false, nil, err
	}
	if !changed {
		return false, &tfjson.Plan{}, nil
	}
	p, err := r.show(ctx, file)
	if err != nil {
		return false, nil, err
	}
	return changed, p, nil
}

// planMode selects what a plan is for.
type planMode int

const (
	planApply   planMode = iota // make real match the configuration
	planDestroy                 // remove everything the unit manages
	planRefresh                 // only record changes made outside Terraform
	// planDestroyAsRecorded removes everything the unit manages as the state last recorded
	// it, without refreshing: for a unit whose refresh cannot be planned (the provider refuses
	// to move a changed object back to its declaration), which must still be removable.
	planDestroyAsRecorded
)

// planOptions: the variables from eos.tfvars.json, a saved plan in out. terraform-exec always
// adds -input=false and -detailed-exitcode.
func planOptions(out string, mode planMode) []tfexec.PlanOption {
	opts := []tfexec.PlanOption{tfexec.Out(out), tfexec.VarFile(varsFile)}
	switch mode {
	case planDestroy:
		opts = append(opts, tfexec.Destroy(true))
	case planDestroyAsRecorded:
		opts = append(opts, tfexec.Destroy(true), tfexec.Refresh(false))
	case planRefresh:
		opts = append(opts, tfexec.RefreshOnly(true))
	}
	return opts
}

// applyOptions: exactly the saved plan (variables are inside it), waiting up to lockWait for
// the state lock.
func applyOptions(file string, lockWait time.Duration) []tfexec.ApplyOption {
	opts := []tfexec.ApplyOption{tfexec.DirOrPlan(file)}
	if lockWait > 0 {
		opts = append(opts, tfexec.LockTimeout(lockWait.String()))
	}
	return opts
}

func fileSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
