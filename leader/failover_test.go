package leader

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store/pgtest"
)

func TestTerminatedBackendEndsTheTerm(t *testing.T) {
	dsn := pgtest.Database(t)
	a, _ := newElector(t, dsn, "a")
	b, _ := newElector(t, dsn, "b")
	ta := campaign(t, a)
	bWon := campaignAsync(t, b)
	standingBy(t, b, 1)

	var terminated bool
	err := admin(t, dsn).QueryRow(context.Background(), "SELECT pg_terminate_backend($1)", pid(ta)).Scan(&terminated)
	if err != nil || !terminated {
		t.Fatalf("terminating a's backend %d: %v, %v", pid(ta), terminated, err)
	}
	err = ended(t, ta, "a")
	if !errors.Is(err, ErrSessionLost) || !strings.Contains(err.Error(), "terminating connection due to administrator command") {
		t.Fatalf("a's term ended with %v; want ErrSessionLost naming the termination", err)
	}
	if err := ta.Valid(); !errors.Is(err, ErrSessionLost) || a.Role() != RoleStandby {
		t.Fatalf("a after losing its session: Valid = %v, role %s", err, a.Role())
	}
	tb := won(t, bWon, "b")
	if err := tb.Valid(); err != nil {
		t.Fatalf("b took over with Valid = %v", err)
	}
}

func TestFrozenLeaderLosesTheLockAfterTheLease(t *testing.T) {
	dsn := pgtest.Database(t)
	a, _ := newElector(t, dsn, "a")
	b, _ := newElector(t, dsn, "b")
	ta := campaign(t, a)
	bWon := campaignAsync(t, b)
	standingBy(t, b, 1)

	thaw := freeze(t, ta)
	frozen := time.Now()
	tb := won(t, bWon, "b")
	took := time.Since(frozen)

	// The server freed the lock: a's heartbeat goroutine never ran, so a did not give it up.
	select {
	case <-ta.Done():
		t.Fatalf("a's term ended while a was frozen: %v", ta.Err())
	default:
	}
	if took < testLease/2 {
		t.Fatalf("b led %s after a froze, sooner than the lease (%s) allows", took, testLease)
	}
	// By the time b leads, a's clock alone already tells it not to act.
	if err := ta.Valid(); !errors.Is(err, ErrLeaseExpired) {
		t.Fatalf("frozen a's Valid once b leads = %v; want ErrLeaseExpired", err)
	}
	if a.Role() != RoleStandby || b.Role() != RoleLeader {
		t.Fatalf("roles: a %s, b %s", a.Role(), b.Role())
	}
	if err := tb.Valid(); err != nil {
		t.Fatalf("b's term: %v", err)
	}

	// Woken, a ends its term on the clock, before any heartbeat.
	thaw()
	if err := ended(t, ta, "a"); !errors.Is(err, ErrLeaseExpired) {
		t.Fatalf("thawed a's term ended with %v; want ErrLeaseExpired", err)
	}
}

func TestLeaderCutOffFromPostgreSQLStepsDown(t *testing.T) {
	dsn := pgtest.Database(t)
	p, viaProxy := newProxy(t, dsn)
	p.start(t)
	a, _ := newElector(t, viaProxy, "a")
	b, _ := newElector(t, dsn, "b")
	ta := campaign(t, a)
	bWon := campaignAsync(t, b)
	standingBy(t, b, 1)

	p.cutNetwork()
	tb := won(t, bWon, "b")
	if err := ta.Valid(); !errors.Is(err, ErrLeaseExpired) {
		t.Fatalf("cut-off a's Valid once b leads = %v; want ErrLeaseExpired", err)
	}
	if err := ended(t, ta, "a"); !errors.Is(err, ErrLeaseExpired) {
		t.Fatalf("cut-off a's term ended with %v; want ErrLeaseExpired", err)
	}
	if err := tb.Valid(); err != nil {
		t.Fatalf("b's term: %v", err)
	}
}

func TestCampaignWaitsForPostgreSQL(t *testing.T) {
	dsn := pgtest.Database(t)
	p, viaProxy := newProxy(t, dsn)
	e, book := newElector(t, viaProxy, "e")
	won := campaignAsync(t, e)

	standingBy(t, e, 3) // refused: nothing listens yet
	select {
	case o := <-won:
		t.Fatalf("campaign ended with nothing to connect to: term %t, err %v", o.term != nil, o.err)
	default:
	}
	if n := book.count("PostgreSQL unreachable"); n != 1 {
		t.Fatalf("after %d refused attempts the outage was logged %d times, want once", e.attempts.Load(), n)
	}

	p.start(t)
	var term *Term
	select {
	case o := <-won:
		if o.err != nil {
			t.Fatalf("campaign once PostgreSQL answers: %v", o.err)
		}
		term = o.term
	case <-time.After(patience):
		t.Fatalf("no term %s after PostgreSQL became reachable", patience)
	}
	if err := term.Valid(); err != nil {
		t.Fatal(err)
	}
	if n, m := book.count("PostgreSQL unreachable"), book.count("PostgreSQL reachable again"); n != 1 || m != 1 {
		t.Fatalf("logged the outage %d times and the recovery %d times, want once each", n, m)
	}
}
