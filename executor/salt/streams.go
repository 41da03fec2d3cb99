package salt

import (
	"context"
	"time"

	"github.com/eosbot/eos/executor"
)

// maxQuickStreams bounds the event streams open at once only to take a job's returns sooner
// (dry runs, drift checks; follow.go, eventReturn): salt-api serves each open stream with one
// of its threads (rest_cherrypy's thread_pool, 100 by default), and a burst of previews must
// not take them all. Past the bound a job is followed through /jobs alone, as it is without streams. A
// stream that reports an apply's states is not bounded: applies are few, one per lock.
const maxQuickStreams = 16

// maxDryRuns bounds the dry runs (plans, drift checks) of one layer running at once.
const maxDryRuns = 16

// quickSafetyPoll is how often /jobs is looked at while a quick stream is up, in case it lost
// a return event.
const quickSafetyPoll = 5 * time.Second

// openStreamWhile opens the event stream (openStream) while write puts the job's state files on
// the master: each is a round trip to salt-api, and neither needs the other. write's error
// comes first, as when they ran one after the other; the stream is then closed.
func (l *Layer) openStreamWhile(ctx context.Context, name string, progress bool, write func() error) (*eventStream, error) {
	type opened struct {
		es  *eventStream
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		es, err := l.openStream(ctx, name, progress)
		ch <- opened{es, err}
	}()
	werr := write()
	o := <-ch
	if werr != nil {
		if o.es != nil {
			o.es.close()
		}
		return nil, werr
	}
	return o.es, o.err
}

// openStream opens salt-api's event stream for one job of name (a unit's service, or a
// combined dry run's), when the layer follows streams: progress says whether the job's states
// are reported as they finish (an apply), or only its returns taken the moment they arrive.
// It returns nil, and no error, when the job is to be followed through /jobs alone: streams
// are off, the bound is reached, or the stream could not be opened (a warning says why). The
// error is ctx's, when it ended meanwhile.
func (l *Layer) openStream(ctx context.Context, name string, progress bool) (*eventStream, error) {
	if !l.events || !progress && !l.eventReturns {
		return nil, nil
	}
	release := func() {}
	if !progress {
		select {
		case l.quick <- struct{}{}:
			release = func() { <-l.quick }
		default:
			return nil, nil
		}
	}
	es, err := l.api.openEvents(ctx)
	if err != nil {
		release()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		then := "following the job through /jobs"
		if progress {
			then = "progress will come per minion from /jobs"
		}
		executor.Log(ctx, l.log).Warn("cannot follow salt-api's event stream; "+then, "unit", name, "err", err)
		return nil, nil
	}
	es.quick, es.release = !progress, release
	return es, nil
}
