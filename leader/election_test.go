package leader

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/eosbot/eos/bot/store/pgtest"
)

func TestOnlyOneOfTwoLeads(t *testing.T) {
	dsn := pgtest.Database(t)
	a, _ := newElector(t, dsn, "a")
	b, bLog := newElector(t, dsn, "b")
	ta := campaign(t, a)

	// b keeps trying for more than a lease (so across several of a's heartbeats) and fails.
	ctx, cancel := context.WithTimeout(context.Background(), 2*testLease)
	defer cancel()
	tb, err := b.Campaign(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || tb != nil {
		t.Fatalf("b's campaign while a leads: term %t, err %v; want no term and the deadline", tb != nil, err)
	}
	if n := b.attempts.Load(); n < 5 {
		t.Fatalf("b tried the lock only %d times in %s", n, 2*testLease)
	}
	if n := bLog.count("another replica leads"); n != 1 {
		t.Errorf("b logged %d times that another replica leads, want once", n)
	}
	if a.Role() != RoleLeader || b.Role() != RoleStandby {
		t.Fatalf("roles: a %s, b %s", a.Role(), b.Role())
	}
	if err := ta.Valid(); err != nil {
		t.Fatalf("a's term after %s of heartbeats: %v", 2*testLease, err)
	}
	if got := holders(t, admin(t, dsn), DefaultKey); !slices.Equal(got, []uint32{pid(ta)}) {
		t.Fatalf("lock holders %v, want only a's backend %d", got, pid(ta))
	}
	if _, err := a.Campaign(context.Background()); err == nil {
		t.Fatal("a second campaign while leading was accepted")
	}
}

func TestResignHandsOver(t *testing.T) {
	dsn := pgtest.Database(t)
	a, _ := newElector(t, dsn, "a")
	b, _ := newElector(t, dsn, "b")
	ta := campaign(t, a)
	bWon := campaignAsync(t, b)
	standingBy(t, b, 2)

	ta.Resign()
	select {
	case <-ta.Done():
	default:
		t.Fatal("Resign returned before Done closed")
	}
	if err := ta.Err(); !errors.Is(err, ErrResigned) {
		t.Fatalf("a's term ended with %v, want ErrResigned", err)
	}
	if err := ta.Valid(); !errors.Is(err, ErrResigned) {
		t.Fatalf("a's resigned term: Valid = %v", err)
	}
	if a.Role() != RoleStandby {
		t.Fatalf("a resigned and is %s", a.Role())
	}
	ta.Resign() // a second Resign returns at once

	tb := won(t, bWon, "b")
	if err := tb.Valid(); err != nil || b.Role() != RoleLeader {
		t.Fatalf("b leads with Valid = %v, role %s", err, b.Role())
	}

	// a can campaign again and gets the lock back when b resigns.
	aWon := campaignAsync(t, a)
	standingBy(t, a, 2)
	tb.Resign()
	ta2 := won(t, aWon, "a, again")
	if got := holders(t, admin(t, dsn), DefaultKey); !slices.Equal(got, []uint32{pid(ta2)}) {
		t.Fatalf("lock holders %v, want a's new backend %d", got, pid(ta2))
	}
}

func TestCampaignReturnsCtxErrWhenCancelled(t *testing.T) {
	dsn := pgtest.Database(t)
	a, _ := newElector(t, dsn, "a")
	b, _ := newElector(t, dsn, "b")
	campaign(t, a)

	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan outcome, 1)
	go func() {
		term, err := b.Campaign(ctx)
		result <- outcome{term, err}
	}()
	standingBy(t, b, 2)
	cancel()
	o := <-result
	if o.err != context.Canceled || o.term != nil {
		t.Fatalf("cancelled campaign: term %t, err %v; want no term and context.Canceled", o.term != nil, o.err)
	}
	tried := b.attempts.Load()
	if _, err := b.Campaign(ctx); err != context.Canceled || b.attempts.Load() != tried {
		t.Fatalf("campaign with a cancelled ctx = %v after %d attempts", err, b.attempts.Load()-tried)
	}
	if a.Role() != RoleLeader || b.Role() != RoleStandby {
		t.Fatalf("roles after the cancelled campaign: a %s, b %s", a.Role(), b.Role())
	}
}
