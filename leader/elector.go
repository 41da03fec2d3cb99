package leader

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Roles reported by Elector.Role.
const (
	RoleStandby = "standby"
	RoleLeader  = "leader"
)

// Elector campaigns for leadership on behalf of this process.
type Elector struct {
	cfg  Config
	conn *pgx.ConnConfig

	mu          sync.Mutex
	campaigning bool
	term        *Term // the latest term won, ended or not

	attempts atomic.Int64 // lock attempts made, connected or not; read by tests
}

// New checks cfg and fills its defaults; it does not connect.
func New(cfg Config) (*Elector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	cc, err := cfg.connConfig()
	if err != nil {
		return nil, err
	}
	return &Elector{cfg: cfg, conn: cc}, nil
}

// Role is RoleLeader while this process holds a valid term, RoleStandby otherwise.
func (e *Elector) Role() string {
	e.mu.Lock()
	t := e.term
	e.mu.Unlock()
	if t != nil && t.Valid() == nil {
		return RoleLeader
	}
	return RoleStandby
}

// Campaign blocks until this process leads or ctx ends, then returns the term or ctx.Err().
// It tries the lock at once and then every Retry. PostgreSQL being down or restarting is not an
// error: Campaign keeps trying, logging the first failure and the recovery, not every attempt.
// The term outlives ctx: end it with Resign. One campaign at a time per Elector, and none while
// its term lasts.
func (e *Elector) Campaign(ctx context.Context) (*Term, error) {
	if err := e.enter(); err != nil {
		return nil, err
	}
	defer e.leave()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := standby{cfg: e.cfg, connCfg: e.conn}
	defer s.close()
	var (
		outage   time.Time // when the current outage began; zero while PostgreSQL answers
		reported bool      // whether "another replica leads" was logged
	)
	wait := time.NewTimer(0)
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wait.C:
		}
		e.attempts.Add(1)
		sent, got, err := s.try(ctx)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			if outage.IsZero() {
				outage = time.Now()
				e.cfg.Logger.Warn("leader election: PostgreSQL unreachable; retrying", "every", e.cfg.Retry, "err", err)
			}
		case !outage.IsZero():
			e.cfg.Logger.Info("leader election: PostgreSQL reachable again", "after", time.Since(outage).Round(time.Millisecond))
			outage = time.Time{}
		}
		if got {
			t := newTerm(s.handOver(), e.cfg, sent)
			e.mu.Lock()
			e.term = t
			e.mu.Unlock()
			t.log.Info("leading", "key", e.cfg.Key)
			return t, nil
		}
		if err == nil && !reported {
			reported = true
			e.cfg.Logger.Info("leader election: another replica leads; standing by", "key", e.cfg.Key)
		}
		wait.Reset(e.cfg.Retry)
	}
}

// enter marks a campaign as running, refusing a second one or one while a term lasts.
func (e *Elector) enter() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.campaigning {
		return errors.New("leader election: a campaign is already running")
	}
	if e.term != nil && e.term.Err() == nil {
		return errors.New("leader election: already leading; resign the current term first")
	}
	e.campaigning = true
	return nil
}

func (e *Elector) leave() {
	e.mu.Lock()
	e.campaigning = false
	e.mu.Unlock()
}

// standby is a campaign's connection. It is kept between attempts, not reopened each time: an
// attempt is then one round trip and a standby costs the server one idle backend, not a fork
// per Retry. It holds nothing while idle (pg_try_advisory_lock never waits), and any error
// closes it so that a half-done attempt cannot keep the lock; the next attempt reconnects.
type standby struct {
	cfg     Config
	connCfg *pgx.ConnConfig
	conn    *pgx.Conn
}

// try makes one attempt, connecting first if needed. It returns whether the lock was taken and
// when the query that took it was sent.
func (s *standby) try(ctx context.Context) (sent time.Time, got bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Lease)
	defer cancel()
	if s.conn == nil {
		if s.conn, err = pgx.ConnectConfig(ctx, s.connCfg); err != nil {
			return sent, false, fmt.Errorf("connecting: %w", err)
		}
	}
	sent = time.Now()
	if err = s.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", s.cfg.Key).Scan(&got); err != nil {
		s.close()
		return sent, false, fmt.Errorf("trying the lock: %w", err)
	}
	return sent, got, nil
}

// handOver gives the connection, now holding the lock, to the caller.
func (s *standby) handOver() *pgx.Conn {
	c := s.conn
	s.conn = nil
	return c
}

func (s *standby) close() {
	if s.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Heartbeat)
	defer cancel()
	s.conn.Close(ctx)
	s.conn = nil
}
