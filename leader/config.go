package leader

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultKey is the advisory lock key used when Config.Key is 0: the FNV-1a 64-bit hash of
// "eos-leader". In pg_locks it shows as classid 0x5bc47455, objid 0x8f3552a4, objsubid 1.
const DefaultKey int64 = 0x5bc474558f3552a4

// Defaults for the zero values of Config. Together they give a takeover ≈ Retry (1 s) after the
// leader is killed and ≈ Lease + Retry (6 s) after it freezes.
const (
	DefaultRetry     = time.Second
	DefaultHeartbeat = time.Second
	DefaultLease     = 5 * time.Second
)

// Config says where the lock lives and how fast leadership moves.
type Config struct {
	// DSN is the PostgreSQL connection string (the store's). It must reach PostgreSQL 14 or
	// newer directly: session-level advisory locks do not survive a pooler in transaction mode.
	DSN string
	// Key is the advisory lock key; 0 means DefaultKey. Replicas that must exclude each other
	// use the same key.
	Key int64
	// Retry is how often a standby tries to take the lock; 0 means DefaultRetry. At most Lease/2,
	// because the standby's idle connection is also ended by the server after Lease.
	Retry time.Duration
	// Heartbeat is how often the leader proves its session is alive; 0 means DefaultHeartbeat.
	// At most Lease/3, so a healthy leader's session never sits idle long enough for the server
	// to end it, even when one heartbeat is slow.
	Heartbeat time.Duration
	// Lease is how long the server lets the leader's session sit idle before ending it (which
	// frees the lock for a standby); 0 means DefaultLease. The leader itself stops trusting its
	// leadership Lease − Heartbeat after the last successful heartbeat was sent. It is truncated
	// to whole milliseconds, the server's unit.
	Lease time.Duration
	// Logger receives campaign and term events; nil means slog.Default().
	Logger *slog.Logger
}

// withDefaults fills the zero values and checks the timings fit together.
func (c Config) withDefaults() (Config, error) {
	if c.DSN == "" {
		return c, errors.New("leader election: no DSN")
	}
	if c.Key == 0 {
		c.Key = DefaultKey
	}
	if c.Retry == 0 {
		c.Retry = DefaultRetry
	}
	if c.Heartbeat == 0 {
		c.Heartbeat = DefaultHeartbeat
	}
	if c.Lease == 0 {
		c.Lease = DefaultLease
	}
	// The server counts the lease in whole milliseconds; the local lease must not be longer.
	c.Lease = c.Lease.Truncate(time.Millisecond)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	switch {
	case c.Retry < 0 || c.Heartbeat < 0 || c.Lease < 0:
		return c, fmt.Errorf("leader election: negative duration (retry %s, heartbeat %s, lease %s)", c.Retry, c.Heartbeat, c.Lease)
	case c.Lease < 10*time.Millisecond:
		return c, fmt.Errorf("leader election: lease %s is too short (PostgreSQL counts it in milliseconds)", c.Lease)
	case c.Heartbeat > c.Lease/3:
		return c, fmt.Errorf("leader election: heartbeat %s must be at most a third of the lease %s", c.Heartbeat, c.Lease)
	case c.Retry > c.Lease/2:
		return c, fmt.Errorf("leader election: retry %s must be at most half the lease %s", c.Retry, c.Lease)
	}
	return c, nil
}

// connConfig parses the DSN and adds the session settings that make the server end a silent
// leader's session after the lease, freeing its lock:
//   - idle_session_timeout: a leader that stops sending (frozen process, lost network) is idle;
//   - idle_in_transaction_session_timeout: the same if it ever froze inside a transaction;
//   - TCP keepalives and tcp_user_timeout on both ends: a dead peer is noticed even while a
//     query is outstanding.
func (c Config) connConfig() (*pgx.ConnConfig, error) {
	cc, err := pgx.ParseConfig(c.DSN)
	if err != nil {
		return nil, fmt.Errorf("leader election: parsing DSN: %w", err)
	}
	lease := strconv.FormatInt(c.Lease.Milliseconds(), 10)
	// PostgreSQL's keepalive settings are whole seconds.
	idle := strconv.FormatInt(int64(math.Ceil(c.Lease.Seconds()/2)), 10)
	for k, v := range map[string]string{
		"idle_session_timeout":                lease,
		"idle_in_transaction_session_timeout": lease,
		"tcp_keepalives_idle":                 idle,
		"tcp_keepalives_interval":             "1",
		"tcp_keepalives_count":                "3",
		"tcp_user_timeout":                    lease,
	} {
		cc.RuntimeParams[k] = v
	}
	if cc.ConnectTimeout == 0 || cc.ConnectTimeout > c.Lease {
		cc.ConnectTimeout = c.Lease
	}
	dialer := &net.Dialer{
		Timeout: cc.ConnectTimeout,
		KeepAliveConfig: net.KeepAliveConfig{
			Enable:   true,
			Idle:     c.Lease / 2,
			Interval: c.Heartbeat,
			Count:    3,
		},
	}
	cc.DialFunc = dialer.DialContext
	if cc.RuntimeParams["application_name"] == "" {
		cc.RuntimeParams["application_name"] = "eos-leader"
	}
	return cc, nil
}
