package nomad

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/nomad/api"
)

// waitEval waits until an evaluation is no longer pending; a failed or cancelled one is an
// error.
func (l *Layer) waitEval(ctx context.Context, evalID string, rt *retrier) (*api.Evaluation, error) {
	if evalID == "" {
		return &api.Evaluation{}, nil
	}
	return l.waitEvalPast(ctx, evalID, rt, evalPending)
}

// waitEvalPast follows an evaluation with blocking queries until its status is none of
// waiting; a failed or cancelled one is an error.
func (l *Layer) waitEvalPast(ctx context.Context, evalID string, rt *retrier, waiting ...string) (*api.Evaluation, error) {
	var index uint64
	for {
		var (
			ev *api.Evaluation
			qm *api.QueryMeta
		)
		err := rt.do(ctx, func(c context.Context) (err error) {
			ev, qm, err = l.client.Evaluations().Info(evalID, l.blocking(c, index))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("reading evaluation %s: %w", evalID, err)
		}
		switch {
		case slices.Contains(waiting, ev.Status):
		case ev.Status == evalCancel && ev.JobID != "":
			// Nomad keeps one blocked evaluation per job and cancels any other (as when a
			// write lands while the nodes restart): that one places the job's current
			// version once a node is ready, so it is the one to follow.
			blocked, err := l.blockedEvalOf(ctx, ev.JobID, evalID, rt)
			if err != nil {
				return nil, err
			}
			if blocked == "" {
				return nil, fmt.Errorf("evaluation %s %s: %s", evalID, ev.Status, ev.StatusDescription)
			}
			evalID, index = blocked, 0
			if !slices.Contains(waiting, evalBlocked) {
				waiting = append(slices.Clone(waiting), evalBlocked)
			}
			continue
		case ev.Status == evalFailed || ev.Status == evalCancel:
			return nil, fmt.Errorf("evaluation %s %s: %s", evalID, ev.Status, ev.StatusDescription)
		default:
			return ev, nil
		}
		index = qm.LastIndex
	}
}

// noReadyNode reports whether the scheduler failed to place every group because no node was
// ready at all (none evaluated), as while the clients restart.
func noReadyNode(failed map[string]*api.AllocationMetric) bool {
	for _, m := range failed {
		if m == nil || m.NodesEvaluated > 0 {
			return false
		}
	}
	return true
}

// waitUnblocked waits until Nomad has processed an evaluation it blocked until a node could
// take its allocations, and returns it.
func (l *Layer) waitUnblocked(ctx context.Context, evalID string, rt *retrier) (*api.Evaluation, error) {
	return l.waitEvalPast(ctx, evalID, rt, evalPending, evalBlocked)
}

// blockedEvalOf returns the ID of the job's blocked evaluation other than except, or "".
func (l *Layer) blockedEvalOf(ctx context.Context, jobID, except string, rt *retrier) (string, error) {
	var evs []*api.Evaluation
	err := rt.do(ctx, func(c context.Context) (err error) {
		evs, _, err = l.client.Jobs().Evaluations(jobID, l.query(c))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("reading the evaluations of nomad job %s: %w", jobID, err)
	}
	for _, ev := range evs {
		if ev.Status == evalBlocked && ev.ID != except {
			return ev.ID, nil
		}
	}
	return "", nil
}
