package mattermost

import "testing"

func TestConnectedBeforeRun(t *testing.T) {
	a := fakeAdapter(t, newFakeAPI(botUser))
	if err := a.Connected(); err == nil || err.Error() != "connecting" {
		t.Fatalf("Connected() before Run = %v, want connecting", err)
	}
}
