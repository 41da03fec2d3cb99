package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// Retention of what digests leave in the store, applied by prune.
const (
	// driftRetention is how long drift checks are kept; each service's latest check is kept
	// however old, and so is every check a digest still compares with.
	driftRetention = 90 * 24 * time.Hour
	// digestPostTTL is how long a digest's posts answer a 🔧, 📥 or 🔕; older ones are forgotten.
	digestPostTTL = 30 * 24 * time.Hour
)

// Digest is a scheduled drift digest.
type Digest struct {
	// Name identifies the digest in the store.
	Name string
	// Platform is the adapter that posts it ("mattermost", "console").
	Platform string
	// Channel is where it is posted, as that adapter's Post expects.
	Channel string
	// Schedule is a cron line ("0 8 * * 1-5"), read in Location.
	Schedule string
	// Location is the schedule's time zone (default UTC).
	Location *time.Location
	// Envs and Services limit what it covers; empty means everything.
	Envs     []string
	Services []string
	// Parallelism is how many services are checked at once (default: the number of cores).
	Parallelism int
	// CheckTimeout bounds one service's check over every layer (default 5 minutes); a check
	// that runs out of time is reported unknown, never clean.
	CheckTimeout time.Duration
}

// digestPlan is a Digest with its parsed schedule.
type digestPlan struct {
	Digest
	sched cron.Schedule
}

// parseDigests checks every digest's schedule at start-up.
func parseDigests(ds []Digest) ([]digestPlan, error) {
	var out []digestPlan
	for _, d := range ds {
		if d.Name == "" || d.Platform == "" || d.Channel == "" {
			return nil, fmt.Errorf("digest %q: name, platform and channel are required", d.Name)
		}
		sched, err := cron.ParseStandard(d.Schedule)
		if err != nil {
			return nil, fmt.Errorf("digest %q: schedule %q: %w", d.Name, d.Schedule, err)
		}
		if d.Location == nil {
			d.Location = time.UTC
		}
		out = append(out, digestPlan{Digest: d, sched: sched})
	}
	return out, nil
}

// next is when d is due after t.
func (d digestPlan) next(t time.Time) time.Time { return d.sched.Next(t.In(d.Location)) }

// RunDueDigests posts every digest whose time has come: once per digest however many times
// it was due (a digest missed while Eos was down runs once and says it is late). A digest
// never run before starts counting from now. It returns how many digests it posted.
func (e *Engine) RunDueDigests(ctx context.Context) int {
	e.digests.mu.Lock()
	defer e.digests.mu.Unlock()
	now := e.now()
	n := 0
	for _, d := range e.digests.plans {
		st, err := e.st.Digest(ctx, d.Name)
		if err != nil {
			e.log.Error("reading digest state", "digest", d.Name, "err", err)
			continue
		}
		if st.LastRun.IsZero() {
			e.st.SetDigest(ctx, store.DigestState{Name: d.Name, LastRun: now})
			continue
		}
		due := d.next(st.LastRun)
		if due.After(now) {
			continue
		}
		late := d.next(due).Before(now) || now.Sub(due) > 5*time.Minute
		e.runDigest(ctx, d, st.LastRun, now, due, late)
		if err := e.st.SetDigest(ctx, store.DigestState{Name: d.Name, LastRun: now}); err != nil {
			e.log.Error("recording digest run", "digest", d.Name, "err", err)
		}
		n++
	}
	if n > 0 {
		e.prune(ctx)
	}
	return n
}

// prune forgets digest posts older than digestPostTTL, expired sign-in links and sessions,
// the output of runs older than outputRetention, policy inputs older than policyInputRetention,
// and drift checks older than driftRetention, keeping each service's latest check and, for a digest whose previous run
// is older than the window, every check since that run, which its next run compares with.
func (e *Engine) prune(ctx context.Context) {
	now := e.now()
	keepFrom := now.Add(-driftRetention)
	for _, d := range e.digests.plans {
		if st, err := e.st.Digest(ctx, d.Name); err == nil && !st.LastRun.IsZero() && st.LastRun.Before(keepFrom) {
			keepFrom = st.LastRun
		}
	}
	if n, err := e.st.PruneDrift(ctx, keepFrom); err != nil {
		e.logFailure(ctx, "pruning drift history", err)
	} else if n > 0 {
		e.log.Info("pruned drift history", "checks", n, "before", keepFrom)
	}
	if e.cfg.Leader != nil {
		if n, err := e.st.PruneMessages(ctx, now.Add(-claimRetention)); err != nil {
			e.logFailure(ctx, "pruning message claims", err)
		} else if n > 0 {
			e.log.Info("forgot old message claims", "messages", n)
		}
	}
	if n, err := e.st.PruneDigestPosts(ctx, now.Add(-digestPostTTL)); err != nil {
		e.logFailure(ctx, "pruning digest posts", err)
	} else if n > 0 {
		e.log.Info("forgot old digest posts", "posts", n)
	}
	if n, err := e.st.PruneOutput(ctx, now.Add(-outputRetention)); err != nil {
		e.logFailure(ctx, "pruning runs' output", err)
	} else if n > 0 {
		e.log.Info("forgot the output of old runs", "runs", n)
	}
	e.prunePolicyInputs(ctx, now)
	if n, err := e.st.PruneWeb(ctx, now); err != nil {
		e.logFailure(ctx, "pruning sign-in links and sessions", err)
	} else if n > 0 {
		e.log.Info("forgot expired sign-in links and sessions", "records", n)
	}
}

// schedule prunes old drift history and digest posts, then runs due digests until ctx
// ends, waking at the next due time (or each minute); each digest run prunes again.
func (e *Engine) schedule(ctx context.Context) {
	e.prune(ctx)
	for {
		e.RunDueDigests(ctx)
		wait := time.Minute
		now := e.now()
		for _, d := range e.digests.plans {
			if st, err := e.st.Digest(ctx, d.Name); err == nil && !st.LastRun.IsZero() {
				if w := d.next(st.LastRun).Sub(now); w > 0 && w < wait {
					wait = w
				}
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// runDigest scans what d covers, compares it with the checks of d's previous run (at
// previous), and posts the digest. Its checks are recorded at started, the run's LastRun, so
// the next run finds them however long this scan takes.
func (e *Engine) runDigest(ctx context.Context, d digestPlan, previous, started, due time.Time, late bool) {
	a, ok := e.adapter(d.Platform)
	if !ok {
		e.log.Error("digest platform not running", "digest", d.Name, "platform", d.Platform)
		return
	}
	if !e.mayAct("digest "+d.Name, a, adapters.PostRef{}) {
		return
	}
	all, err := e.st.AllDeclared(ctx)
	if err != nil {
		e.log.Error("reading declared state", "err", err)
		return
	}
	var todo []*store.Deployed
	for _, dep := range all {
		env, service, _ := strings.Cut(dep.Key, "/")
		if (len(d.Envs) == 0 || slices.Contains(d.Envs, env)) && (len(d.Services) == 0 || slices.Contains(d.Services, service)) {
			todo = append(todo, dep)
		}
	}
	todo = e.outcomesFirst(ctx, todo) // unknown.go
	ref, err := a.Post(ctx, d.Channel, render.Scanning(0, len(todo)))
	if err != nil {
		e.log.Error("posting digest", "digest", d.Name, "err", err)
		return
	}
	ed, canEdit := a.(adapters.Editor)
	lastEdit := time.Time{}
	results := e.checkDrift(ctx, todo, d.scan(), func(done int) {
		if canEdit && time.Since(lastEdit) > e.cfg.ProgressInterval && done < len(todo) {
			lastEdit = time.Now()
			ed.Edit(ctx, ref, render.Scanning(done, len(todo)))
		}
	})
	e.recordDrift(ctx, results, started)
	v := e.viewOf(ctx, results, previous)
	doc := render.Digest(results, v, e.now(), due, late)
	headline := ref
	if canEdit {
		if err := ed.Edit(ctx, ref, doc); err != nil {
			e.log.Warn("editing digest", "digest", d.Name, "err", err)
		}
	} else if headline, err = a.Post(ctx, d.Channel, doc); err != nil {
		e.log.Error("posting digest", "digest", d.Name, "err", err)
		return
	}
	rows, _ := render.RowsOf(results, v, e.now())
	e.postDetails(ctx, a, d.Name, headline, render.Actionable(rows))
}

// viewOf reads what a digest compares its results with: each service's check at the previous
// digest (at previous), since when it has not been clean, and the snoozes.
func (e *Engine) viewOf(ctx context.Context, results []render.ServiceDrift, previous time.Time) render.DigestView {
	v := render.DigestView{Before: map[string]store.DriftRecord{}, Since: map[string]time.Time{}, Snoozes: map[string]store.Snooze{}}
	for _, r := range results {
		key := r.Env + "/" + r.Service
		hist, err := e.st.DriftHistory(ctx, key, 0)
		if err != nil {
			e.log.Error("reading drift history", "service", key, "err", err)
			continue
		}
		for i := len(hist) - 1; i >= 0; i-- {
			if !hist[i].At.After(previous) {
				v.Before[key] = hist[i]
				break
			}
		}
		if since := render.StreakStart(hist); !since.IsZero() {
			v.Since[key] = since
		}
	}
	snoozes, err := e.st.Snoozes(ctx)
	if err != nil {
		e.log.Error("reading snoozes", "err", err)
	}
	for _, sn := range snoozes {
		v.Snoozes[sn.Key] = sn
	}
	return v
}

// postDetails replies in the digest's thread once per service in listed (not clean, not
// snoozed), and remembers which post stands for which service, so a 🔧, 📥 or 🔕 on it
// triages that service (on the headline too, when it lists a single service).
func (e *Engine) postDetails(ctx context.Context, a adapters.Adapter, digest string, headline adapters.PostRef, results []render.ServiceDrift) {
	var listed []string
	for _, r := range results {
		listed = append(listed, r.Env+"/"+r.Service)
	}
	if len(listed) == 0 {
		return
	}
	remember := func(post adapters.PostRef, keys []string) {
		if post.ID == "" {
			return
		}
		if err := e.st.AddDigestPosts(ctx, store.DigestPost{Post: post, Digest: digest, Keys: keys, At: e.now()}); err != nil {
			e.log.Error("recording a digest post", "digest", digest, "post", post.ID, "err", err)
		}
	}
	remember(headline, listed)
	for _, r := range results {
		remember(e.say(ctx, a, headline, render.ServiceDriftDoc(r)), []string{r.Env + "/" + r.Service})
	}
}

// scan is the digest's bound on its scan.
func (d digestPlan) scan() scan { return scan{parallelism: d.Parallelism, timeout: d.CheckTimeout} }

func drifted(results []render.ServiceDrift) int {
	n := 0
	for _, r := range results {
		if r.Status != executor.DriftClean {
			n++
		}
	}
	return n
}

// recordDrift appends the results, checked at at, to the drift history.
func (e *Engine) recordDrift(ctx context.Context, results []render.ServiceDrift, at time.Time) {
	var recs []store.DriftRecord
	for _, r := range results {
		recs = append(recs, store.DriftRecord{Key: r.Env + "/" + r.Service, At: at, Status: string(r.Status), Summary: render.LayerCounts(r),
			Fingerprint: render.Fingerprint(r)})
	}
	counts := map[executor.DriftStatus]float64{}
	for _, r := range results {
		counts[r.Status]++
	}
	for _, st := range []executor.DriftStatus{executor.DriftClean, executor.DriftDrifted, executor.DriftUnknown} {
		e.m.drift.WithLabelValues(string(st)).Set(counts[st])
	}
	if err := e.st.RecordDrift(ctx, recs); err != nil {
		e.log.Error("recording drift history", "err", err)
	}
}
