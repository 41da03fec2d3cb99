package salt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/eosbot/eos/executor"
)

// dryRun runs state.apply with test=True for every unit with a Salt part that is not being
// destroyed. A minion that returns no states (unreachable, a render error) fails it: nobody
// approves half a picture.
//
// The units' targets are resolved side by side, one test.ping per distinct target; then the
// eos_data_dir of each minion not seen before is read (datadir.go). Units
// resolved to the same minions share one test-mode job (batch.go): a minion runs one state run
// at a time and queues the others, so one job per unit would only wait for each other. Other
// units' jobs go out side by side. The answer is the same whatever order they end in; the first
// unit's failure (in the spec's order) is the one reported.
//
// The test jobs go out only once test.ping has answered, also for targets that list their
// minions, where the ping could only confirm the list: a minion drops one of two jobs the master
// publishes to it at the same moment ("A message with an invalid serial was received", Salt
// 3006; saltstack/salt#63217), so a ping beside the test job would now and then fail a plan for
// nothing. Measured (docs/PERFORMANCE.md, issue #29), the ping beside the job saved too little
// on a busy machine to be worth that.
func (l *Layer) dryRun(ctx context.Context, spec executor.Spec) ([]unitRun, error) {
	release, err := l.dryRunSlot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	units := saltUnits(spec)
	ons, err := l.resolveUnits(ctx, units)
	if err != nil {
		return nil, err
	}
	dirs := l.dataDirsFor(ctx, ons)
	runs, err := l.dryRunOn(ctx, units, ons)
	if err != nil {
		return nil, err
	}
	setDataDirs(runs, dirs)
	return runs, nil
}

// resolveUnits resolves every unit's targets (resolve), side by side: units with the same
// targets share one test.ping, which answers the same for each.
func (l *Layer) resolveUnits(ctx context.Context, units []executor.Unit) ([][]string, error) {
	var first []int // the first unit of each distinct target
	same := make([]int, len(units))
	seen := map[[2]string]int{}
	for i, u := range units {
		tgt, tgtType, _ := l.target(u)
		k := [2]string{tgt, tgtType}
		if at, ok := seen[k]; ok {
			same[i] = at
			continue
		}
		seen[k], same[i] = len(first), len(first)
		first = append(first, i)
	}
	resolved := make([][]string, len(first))
	if err := eachUnit(ctx, len(first), func(ctx context.Context, t int) error {
		u := units[first[t]]
		on, err := l.resolve(ctx, u)
		if err != nil {
			return fmt.Errorf("%s: %w", u.Service, err)
		}
		resolved[t] = on
		return nil
	}); err != nil {
		return nil, err
	}
	ons := make([][]string, len(units))
	for i := range units {
		ons[i] = resolved[same[i]]
	}
	return ons, nil
}

// dryRunOn dry-runs the units, each on the minions ons gives it (its targets resolved).
func (l *Layer) dryRunOn(ctx context.Context, units []executor.Unit, ons [][]string) ([]unitRun, error) {
	runs := make([]unitRun, len(units))
	groups := l.batches(ctx, units, ons)
	if l.separate {
		groups = groups[:0]
		for i := range units {
			groups = append(groups, []int{i})
		}
	}
	err := eachUnit(ctx, len(groups), func(ctx context.Context, g int) error {
		group := groups[g]
		if len(group) > 1 {
			var us []executor.Unit
			for _, i := range group {
				us = append(us, units[i])
			}
			got, err := l.dryRunBatch(ctx, us, ons[group[0]])
			if err == nil {
				for k, i := range group {
					runs[i] = got[k]
				}
				return nil
			}
			if !errors.Is(err, errSeparately) {
				return err
			}
		}
		return eachUnit(ctx, len(group), func(ctx context.Context, k int) error {
			i := group[k]
			var err error
			runs[i], err = l.dryRunUnit(ctx, units[i], ons[i])
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return runs, nil
}

// dryRunSlot waits for a place among the dry runs that may run at once (maxDryRuns) and
// returns what gives it back: each is a test.ping and a state run the master publishes, so a
// burst of previews queues here rather than all at once on the master.
func (l *Layer) dryRunSlot(ctx context.Context) (func(), error) {
	if l.dry == nil { // a Layer not made by New
		return func() {}, nil
	}
	select {
	case l.dry <- struct{}{}:
		return func() { <-l.dry }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for one of the %d Salt dry runs that may run at once: %w", cap(l.dry), context.Cause(ctx))
	}
}

// eachUnit runs do(i) for i in [0, n) side by side. The first failure cancels the others;
// the error returned is the first in index order among those that failed on their own, not
// because that cancellation ended them. (The cancellation is not always context.Canceled: an
// HTTP request ended by it reports the cancel's cause, the other unit's error, as its own.)
func eachUnit(ctx context.Context, n int, do func(ctx context.Context, i int) error) error {
	errs := make([]error, n)
	own := make([]bool, n)
	g, gctx := errgroup.WithContext(ctx)
	for i := range n {
		g.Go(func() error {
			err := do(gctx, i)
			// The group cancels gctx only after a failing do has returned, so a do that sees
			// gctx live here failed on its own.
			errs[i], own[i] = err, err != nil && gctx.Err() == nil
			return err
		})
	}
	if err := g.Wait(); err != nil {
		for i, e := range errs {
			if own[i] {
				return e
			}
		}
		return err
	}
	return nil
}

// dryRunUnit runs one unit's state in test mode on the minions on, its targets resolved.
func (l *Layer) dryRunUnit(ctx context.Context, u executor.Unit, on []string) (unitRun, error) {
	rets, err := l.runUnit(ctx, u, on, true, nil)
	if err != nil {
		return unitRun{}, fmt.Errorf("%s: %w", u.Service, err)
	}
	for _, m := range rets {
		if m.Err != "" {
			return unitRun{}, fmt.Errorf("%s: minion %s: %s", u.Service, m.Minion, m.Err)
		}
	}
	byMinion(rets)
	return unitRun{unit: u, on: on, rets: rets}, nil
}

// byMinion orders a dry run's returns by minion: they arrive in whatever order the minions
// finish, and the plan (and its hash) must not depend on it.
func byMinion(rets []minionReturn) {
	slices.SortStableFunc(rets, func(a, b minionReturn) int { return strings.Compare(a.Minion, b.Minion) })
}
