package mattermost

import (
	"errors"
	"testing"
)

func TestLinkSaysWhyItIsDown(t *testing.T) {
	closed := errors.New("websocket closed: EOF")
	refused := errors.New("opening the websocket: connection refused")
	tests := []struct {
		name  string
		steps func(l *link)
		want  string // "" for up
	}{
		{"before Run", func(*link) {}, "connecting"},
		{"first attempt failed", func(l *link) { l.start(); l.lost(refused) }, "connecting: opening the websocket: connection refused"},
		{"greeted", func(l *link) { l.start(); l.lost(refused); l.connected() }, ""},
		{"dropped", func(l *link) { l.start(); l.connected(); l.lost(closed) }, "reconnecting: websocket closed: EOF"},
		{"back", func(l *link) { l.start(); l.connected(); l.lost(closed); l.connected() }, ""},
		{"Run returned", func(l *link) { l.start(); l.connected(); l.stop() }, "not running"},
		{"Run started again", func(l *link) { l.start(); l.connected(); l.stop(); l.start() }, "connecting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l link
			tt.steps(&l)
			got := ""
			if err := l.err(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("err() = %q, want %q", got, tt.want)
			}
		})
	}
	var l link
	l.start()
	l.connected()
	l.lost(closed)
	if !errors.Is(l.err(), closed) {
		t.Errorf("err() = %v does not wrap the failure", l.err())
	}
}

func TestConnectedBeforeRun(t *testing.T) {
	a := fakeAdapter(t, newFakeAPI(botUser))
	if err := a.Connected(); err == nil || err.Error() != "connecting" {
		t.Fatalf("Connected() before Run = %v, want connecting", err)
	}
}
