package adapters

import (
	"errors"
	"testing"
)

func TestLinkSaysWhyItIsDown(t *testing.T) {
	closed := errors.New("websocket closed: EOF")
	refused := errors.New("opening the websocket: connection refused")
	tests := []struct {
		name  string
		steps func(l *Link)
		want  string // "" for up
	}{
		{"before Run", func(*Link) {}, "connecting"},
		{"first attempt failed", func(l *Link) { l.Start(); l.Lost(refused) }, "connecting: opening the websocket: connection refused"},
		{"greeted", func(l *Link) { l.Start(); l.Lost(refused); l.Connected() }, ""},
		{"dropped", func(l *Link) { l.Start(); l.Connected(); l.Lost(closed) }, "reconnecting: websocket closed: EOF"},
		{"back", func(l *Link) { l.Start(); l.Connected(); l.Lost(closed); l.Connected() }, ""},
		{"Run returned", func(l *Link) { l.Start(); l.Connected(); l.Stop() }, "not running"},
		{"Run started again", func(l *Link) { l.Start(); l.Connected(); l.Stop(); l.Start() }, "connecting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l Link
			tt.steps(&l)
			got := ""
			if err := l.Err(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Err() = %q, want %q", got, tt.want)
			}
		})
	}
	var l Link
	l.Start()
	l.Connected()
	l.Lost(closed)
	if !errors.Is(l.Err(), closed) {
		t.Errorf("Err() = %v does not wrap the failure", l.Err())
	}
}
