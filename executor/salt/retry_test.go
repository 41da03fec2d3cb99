package salt

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// signalWriter collects logs and closes seen the first time they contain want.
type signalWriter struct {
	syncBuffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	if strings.Contains(string(p), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func TestPlanWaitsForASaltAPIThatRestarts(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	a := newAPIFront(t, f)
	l := restartLayer(t, f, a)
	w := &signalWriter{want: "salt-api is not answering; retrying", seen: make(chan struct{})}
	l.log = slog.New(slog.NewTextHandler(w, nil))
	a.stop()
	go func() {
		<-w.seen
		a.start()
	}()
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil || p.Status != executor.PlanChanges {
		t.Fatalf("Plan = %+v, %v; want the plan made once salt-api was back; logs:\n%s", p, err, w.String())
	}
}

func TestPlanGivesUpOnASaltAPIThatStaysAway(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	a := newAPIFront(t, f)
	l := restartLayer(t, f, a)
	l.dryRetry = 200 * time.Millisecond // 30 s by default: someone waits for the preview
	a.stop()
	start := time.Now()
	_, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err == nil || !strings.Contains(err.Error(), "connection refused") || errors.As(err, new(*executor.UnknownError)) {
		t.Fatalf("Plan = %v; want it to fail on the refused connection, not as unknown", err)
	}
	t.Logf("plan error: %v", err)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the plan took %s to give up, want about dryRetry", took)
	}
}
