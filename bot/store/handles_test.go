package store

import (
	"context"
	"errors"
	"testing"
)

// A handle is pinned once: a second pin (a later look-up, or two at once) gets the first
// account back; the pin and its audit line survive a reopen; forgetting it lets the next
// look-up pin another account, and is audited too.
func TestAHandleIsPinnedOnceAndForgottenOnlyOnPurpose(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		ctx := context.Background()
		s, reopen := open(t)
		pin := HandlePin{Platform: "mattermost", Handle: "Bob", ID: "u-bob", Name: "bob", Since: t0}
		got, created, err := s.PinHandle(ctx, pin, Entry{Kind: "pin", Text: "policy handle bob is account u-bob"})
		if err != nil || !created || got.ID != "u-bob" || got.Handle != "bob" {
			t.Fatalf("first pin = %+v, %v", got, err)
		}
		again, created, err := s.PinHandle(ctx, HandlePin{Platform: "mattermost", Handle: "bob", ID: "u-mallory", Since: t0}, Entry{Kind: "pin", Text: "policy handle bob is account u-mallory"})
		if err != nil || created || again.ID != "u-bob" {
			t.Fatalf("a second pin of the same handle = %+v, %v; want the first account kept", again, err)
		}
		if other, _, err := s.PinHandle(ctx, HandlePin{Platform: "discord", Handle: "bob", ID: "d-bob", Since: t0}, Entry{Kind: "pin", Text: "discord bob"}); err != nil || other.ID != "d-bob" {
			t.Fatalf("bob on discord = %+v, %v; want its own pin", other, err)
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if p, err := s2.HandlePin(ctx, "mattermost", "BOB"); err != nil || p.ID != "u-bob" || !p.Since.Equal(t0) {
			t.Fatalf("pin after a reopen = %+v, %v", p, err)
		}
		if gone, err := s2.ForgetHandle(ctx, "mattermost", "bob", Entry{Kind: "unpin", Text: "forgot bob"}); err != nil || gone.ID != "u-bob" {
			t.Fatalf("forget = %+v, %v", gone, err)
		}
		if _, err := s2.HandlePin(ctx, "mattermost", "bob"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("pin after forget: %v, want not found", err)
		}
		if p, _, err := s2.PinHandle(ctx, HandlePin{Platform: "mattermost", Handle: "bob", ID: "u-bob2", Since: t0}, Entry{Kind: "pin", Text: "bob again"}); err != nil || p.ID != "u-bob2" {
			t.Fatalf("pin after forget = %+v, %v; want the new account", p, err)
		}
		if pins, err := s2.HandlePins(ctx); err != nil || len(pins) != 2 {
			t.Fatalf("pins = %+v, %v; want mattermost's and discord's", pins, err)
		}
		audit, err := s2.Audit(ctx, func(e *Entry) bool { return e.Kind == "pin" || e.Kind == "unpin" })
		if err != nil || len(audit) != 4 {
			t.Fatalf("audit = %+v, %v; want three pins and one unpin (the refused second pin writes none)", audit, err)
		}
	})
}
