package vault

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/vault/api"
)

// reloginRetry bounds how often Run retries a failed AppRole login.
const reloginRetry = 30 * time.Second

// Run keeps Eos's Vault token alive until ctx ends, with the Vault library's lifetime watcher:
// it renews a renewable token before it expires, and when the token reaches its maximum
// lifetime (or cannot be renewed) an AppRole Store logs in again. A token that never expires
// needs nothing, and Run returns at once. A configured token that can no longer be renewed is
// logged as an error and Run returns: Vault calls will fail from then on with Vault's own
// "permission denied", but the rest of Eos keeps working. Run returns nil when ctx ends; it is
// meant for Eos's errgroup.
func (s *Store) Run(ctx context.Context) error {
	for {
		auth := s.currentAuth()
		if auth.Auth.LeaseDuration <= 0 {
			s.log.Info("the Vault token does not expire; nothing to renew")
			return nil
		}
		err := s.watch(ctx, auth)
		if ctx.Err() != nil {
			return nil
		}
		if s.appRole == nil {
			s.log.Error("the Vault token can no longer be renewed; restart Eos with a new token",
				"addr", s.addr, "error", errText(err))
			return nil
		}
		s.log.Info("the Vault token reached the end of its lifetime; logging in again", "error", errText(err))
		if !s.relogin(ctx) {
			return nil
		}
	}
}

// watch runs one lifetime watcher over auth until it gives up or ctx ends.
func (s *Store) watch(ctx context.Context, auth *api.Secret) error {
	w, err := s.client.NewLifetimeWatcher(&api.LifetimeWatcherInput{
		Secret:        auth,
		Increment:     auth.Auth.LeaseDuration,
		RenewBehavior: api.RenewBehaviorIgnoreErrors,
	})
	if err != nil {
		return fmt.Errorf("starting the token watcher: %w", err)
	}
	go w.Start()
	defer w.Stop()
	s.log.Info("watching the Vault token's lifetime", "renewable", auth.Auth.Renewable,
		"ttl", time.Duration(auth.Auth.LeaseDuration)*time.Second)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-w.DoneCh():
			return err
		case r := <-w.RenewCh():
			ttl := time.Duration(0)
			if r != nil && r.Secret != nil && r.Secret.Auth != nil {
				ttl = time.Duration(r.Secret.Auth.LeaseDuration) * time.Second
			}
			s.log.Info("renewed the Vault token", "ttl", ttl)
		}
	}
}

// relogin logs in with AppRole until it succeeds or ctx ends, which it reports as false.
func (s *Store) relogin(ctx context.Context) bool {
	for {
		err := s.loginAppRole(ctx)
		if err == nil {
			return true
		}
		s.log.Error("logging in to Vault again failed; retrying", "error", err, "retry_in", reloginRetry)
		t := time.NewTimer(reloginRetry)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
