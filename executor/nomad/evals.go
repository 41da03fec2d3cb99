package nomad

import (
	"context"
	"fmt"

	"github.com/hashicorp/nomad/api"
)

// waitEval waits until an evaluation is no longer pending; a failed or cancelled one is an
// error.
func (l *Layer) waitEval(ctx context.Context, evalID string, rt *retrier) (*api.Evaluation, error) {
	if evalID == "" {
		return &api.Evaluation{}, nil
	}
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
		switch ev.Status {
		case evalPending:
		case evalFailed, evalCancel:
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
		switch ev.Status {
		case evalPending, evalBlocked:
		case evalFailed, evalCancel:
			return nil, fmt.Errorf("evaluation %s %s: %s", evalID, ev.Status, ev.StatusDescription)
		default:
			return ev, nil
		}
		index = qm.LastIndex
	}
}
