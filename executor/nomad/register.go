package nomad

import (
	"context"
	"fmt"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// evalTriggerRegister is the TriggeredBy of the evaluation a job registration creates.
const evalTriggerRegister = "job-register"

// register registers dj with the planned job modify index enforced, repeating the call while
// the agent does not answer. A job is registered at most once: after a call whose outcome is
// unsure (the connection failed after the request may have been sent), Eos reads the job
// back before sending it again. Still at the planned index, it was not accepted and is sent
// again (the enforced index makes that safe). Past it and equal to what Eos sent (Nomad's own
// plan finds no difference), it was accepted: Eos follows it by the evaluation that
// registration created. Past it and different, someone else changed it, and the enforced
// index makes the next send fail as a change since the plan.
func (l *Layer) register(ctx context.Context, dj desiredJob, index uint64, rt *retrier) (*api.JobRegisterResponse, error) {
	var resp *api.JobRegisterResponse
	unsure := false
	err := rt.do(ctx, func(c context.Context) error {
		if unsure {
			r, ok, err := l.accepted(c, dj, index)
			if err != nil || ok {
				resp = r
				return err
			}
		}
		r, _, err := l.client.Jobs().EnforceRegister(dj.job, index, l.write(c))
		if executor.Transient(restarting(err)) {
			unsure = true
		}
		resp = r
		return err
	})
	return resp, err
}

// accepted reports whether a registration of dj whose answer was lost went through, and
// then the response Nomad would have given.
func (l *Layer) accepted(ctx context.Context, dj desiredJob, index uint64) (*api.JobRegisterResponse, bool, error) {
	cur, err := l.currentJob(ctx, dj.id)
	if err != nil {
		return nil, false, err
	}
	if cur == nil || deref(cur.JobModifyIndex) == index {
		return nil, false, nil
	}
	plan, _, err := l.client.Jobs().Plan(dj.job, true, l.write(ctx))
	if err != nil {
		return nil, false, fmt.Errorf("planning nomad job %s to see whether it was registered: %w", dj.id, err)
	}
	if plan.Diff != nil && plan.Diff.Type != diffNone {
		return nil, false, nil
	}
	modify := deref(cur.JobModifyIndex)
	evals, _, err := l.client.Jobs().Evaluations(dj.id, l.query(ctx))
	if err != nil {
		return nil, false, fmt.Errorf("reading the evaluations of nomad job %s: %w", dj.id, err)
	}
	resp := &api.JobRegisterResponse{JobModifyIndex: modify}
	for _, ev := range evals {
		if ev != nil && ev.JobModifyIndex == modify && ev.TriggeredBy == evalTriggerRegister {
			resp.EvalID = ev.ID
		}
	}
	l.log.Info("nomad job registration was accepted though its answer was lost", "job", dj.id, "modify_index", modify, "eval", resp.EvalID)
	return resp, true, nil
}
