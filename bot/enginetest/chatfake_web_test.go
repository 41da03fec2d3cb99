package enginetest_test

import (
	"context"
	"errors"
	"sync"

	"github.com/eosbot/eos/adapters"
)

// webFake is a chatFake that can whisper (keeping what it whispered, to whom) and says who can
// view which channel: what the status page needs of a platform.
type webFake struct {
	*chatFake

	wmu        sync.Mutex
	whispers   []whisper
	whisperErr error           // when set, Whisper fails with it
	viewers    map[string]bool // "userID channel" → may view
	viewErr    error           // when set, CanView fails with it
	views      int             // CanView calls, to see the cache spare the platform
}

type whisper struct {
	To   adapters.User
	Near adapters.PostRef
	Text string
}

var (
	_ adapters.Whisperer     = (*webFake)(nil)
	_ adapters.ChannelViewer = (*webFake)(nil)
)

func newWebFake(name string, users ...adapters.User) *webFake {
	w := &webFake{chatFake: newChatFake(name, users...), viewers: map[string]bool{}}
	w.self = w
	return w
}

func (w *webFake) Whisper(_ context.Context, to adapters.User, near adapters.PostRef, doc adapters.Doc) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.whisperErr != nil {
		return w.whisperErr
	}
	w.whispers = append(w.whispers, whisper{To: to, Near: near, Text: doc.Plain()})
	return nil
}

func (w *webFake) CanView(_ context.Context, user adapters.User, channel string) (bool, error) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.views++
	if w.viewErr != nil {
		return false, w.viewErr
	}
	return w.viewers[user.ID+" "+channel], nil
}

// allow lets the user with id view channel.
func (w *webFake) allow(id, channel string) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.viewers[id+" "+channel] = true
}

func (w *webFake) failViews(err error) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.viewErr = err
}

func (w *webFake) failWhispers(err error) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.whisperErr = err
}

func (w *webFake) whispered() []whisper {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	return append([]whisper(nil), w.whispers...)
}

func (w *webFake) viewCalls() int {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	return w.views
}

var errPlatformDown = errors.New("platform unreachable")
