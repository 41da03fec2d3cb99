package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The status page's sign-in: `@eos web` makes a one-time link, the page trades it for a
// session. Both are kept here, under the SHA-256 of their secret (never the secret itself),
// so that every replica sharing the store honours them and a link is used at most once
// whichever replica it reaches.

var (
	bucketWebLinks    = []byte("web_links")
	bucketWebSessions = []byte("web_sessions")
)

func init() { allBuckets = append(allBuckets, bucketWebLinks, bucketWebSessions) }

// ErrLinkUsed and ErrLinkExpired are why a sign-in link is refused.
var (
	ErrLinkUsed    = errors.New("this sign-in link was used already")
	ErrLinkExpired = errors.New("this sign-in link has expired")
)

// WebPerson is who a link or a session signs in as: a platform and its immutable user ID.
// Name is the handle when the link was made, for display only.
type WebPerson struct {
	Platform string `json:"platform"`
	UserID   string `json:"user_id"`
	Name     string `json:"name"`
}

// WebLink is a one-time sign-in link, kept by the hash of its token.
type WebLink struct {
	Person  WebPerson `json:"person"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// Used is when the link was traded for a session; zero while unused.
	Used time.Time `json:"used,omitzero"`
}

// WebSession is a signed-in browser, kept by the hash of its cookie.
type WebSession struct {
	Person  WebPerson `json:"person"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// AddWebLink records a new link under tokenHash.
func (s *Store) AddWebLink(ctx context.Context, tokenHash string, l WebLink) error {
	return s.update(ctx, func(tx txn) error { return put(tx, bucketWebLinks, tokenHash, l) })
}

// RedeemWebLink uses the link under tokenHash at now, once: the first call returns it and
// marks it used; later calls return ErrLinkUsed, calls after it expired ErrLinkExpired, and a
// hash that names no link ErrNotFound.
func (s *Store) RedeemWebLink(ctx context.Context, tokenHash string, now time.Time) (*WebLink, error) {
	var out *WebLink
	err := s.update(ctx, func(tx txn) error {
		out = nil // a retried transaction starts over
		l, err := get[WebLink](tx, bucketWebLinks, tokenHash)
		if err != nil {
			return err
		}
		switch {
		case !l.Used.IsZero():
			return ErrLinkUsed
		case !now.Before(l.Expires):
			return ErrLinkExpired
		}
		l.Used = now
		out = l
		return put(tx, bucketWebLinks, tokenHash, l)
	})
	return out, err
}

// AddWebSession records a session under idHash.
func (s *Store) AddWebSession(ctx context.Context, idHash string, ws WebSession) error {
	return s.update(ctx, func(tx txn) error { return put(tx, bucketWebSessions, idHash, ws) })
}

// WebSessionAt returns the session under idHash if it is still valid at now; ErrNotFound
// when there is none or it has expired.
func (s *Store) WebSessionAt(ctx context.Context, idHash string, now time.Time) (*WebSession, error) {
	var out *WebSession
	err := s.view(ctx, func(tx txn) error {
		out = nil
		ws, err := get[WebSession](tx, bucketWebSessions, idHash)
		if err != nil {
			return err
		}
		if !now.Before(ws.Expires) {
			return ErrNotFound
		}
		out = ws
		return nil
	})
	return out, err
}

// EndWebSession forgets the session under idHash (signing out).
func (s *Store) EndWebSession(ctx context.Context, idHash string) error {
	return s.update(ctx, func(tx txn) error { return tx.bucket(bucketWebSessions).Delete([]byte(idHash)) })
}

// PruneWeb deletes, in one transaction, every link and session that expired at or before
// now: an expired link can no longer be redeemed and an expired session no longer signs in,
// so keeping them only grows the store. It returns how many records it deleted.
func (s *Store) PruneWeb(ctx context.Context, now time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx txn) error {
		n = 0 // a retried transaction starts over
		var links, sessions []string
		err := each(tx, bucketWebLinks, func(key string, l *WebLink) bool {
			if !now.Before(l.Expires) {
				links = append(links, key)
			}
			return true
		})
		if err != nil {
			return err
		}
		err = each(tx, bucketWebSessions, func(key string, ws *WebSession) bool {
			if !now.Before(ws.Expires) {
				sessions = append(sessions, key)
			}
			return true
		})
		if err != nil {
			return err
		}
		for _, doomed := range []struct {
			bucket []byte
			keys   []string
		}{{bucketWebLinks, links}, {bucketWebSessions, sessions}} {
			b := tx.bucket(doomed.bucket)
			for _, k := range doomed.keys {
				if err := b.Delete([]byte(k)); err != nil {
					return fmt.Errorf("deleting %s %q: %w", doomed.bucket, k, err)
				}
			}
		}
		n = len(links) + len(sessions)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning sign-in links and sessions: %w", err)
	}
	return n, nil
}
