package store

import (
	"context"
	"fmt"
	"time"
)

// What the store keeps of the chat itself, so a process that takes over (after a failover or
// a restart) carries on where the last one stopped: how far each channel was read (the
// adapters' catch-up cursors) and which messages were already taken (so a message delivered
// again, live to one process and in the next one's catch-up, is answered once).

var (
	bucketCursors  = []byte("cursors")  // platform/channel → time read up to
	bucketMessages = []byte("messages") // platform/channel/id@unixms → time taken
)

func init() { allBuckets = append(allBuckets, bucketCursors, bucketMessages) }

// Cursor reads how far channel was read on platform; ok is false when it never was. It
// implements adapters.Cursors.
func (s *Store) Cursor(ctx context.Context, platform, channel string) (at time.Time, ok bool, err error) {
	err = s.view(ctx, func(tx txn) error {
		got, err := get[time.Time](tx, bucketCursors, platform+"/"+channel)
		if err == nil {
			at, ok = *got, true
		}
		return nil
	})
	return at, ok, err
}

// SetCursor records that channel was read up to at; a cursor never moves backwards.
func (s *Store) SetCursor(ctx context.Context, platform, channel string, at time.Time) error {
	key := platform + "/" + channel
	return s.update(ctx, func(tx txn) error {
		if cur, err := get[time.Time](tx, bucketCursors, key); err == nil && !at.After(*cur) {
			return nil
		}
		return put(tx, bucketCursors, key, at.UTC())
	})
}

// ClaimMessage records that this process answers the message id (posted at at) in channel,
// and reports whether it is the first to: a message already claimed, by this process or a
// previous leader, is not answered again. The claim is a fenced write, so a leader that lost
// its leadership claims nothing. A message claimed by a leader that died before answering
// stays unanswered: chat requests are answered at most once, never twice.
func (s *Store) ClaimMessage(ctx context.Context, platform, channel, id string, at, now time.Time) (first bool, err error) {
	key := fmt.Sprintf("%s/%s/%s@%d", platform, channel, id, at.UnixMilli())
	err = s.update(ctx, func(tx txn) error {
		if tx.bucket(bucketMessages).Get([]byte(key)) != nil {
			first = false
			return nil
		}
		first = true
		return put(tx, bucketMessages, key, now.UTC())
	})
	return first, err
}

// PruneMessages forgets the claims made before keepFrom; it returns how many.
func (s *Store) PruneMessages(ctx context.Context, keepFrom time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx txn) error {
		var doomed []string
		err := each(tx, bucketMessages, func(key string, at *time.Time) bool {
			if at.Before(keepFrom) {
				doomed = append(doomed, key)
			}
			return true
		})
		if err != nil {
			return err
		}
		for _, k := range doomed {
			if err := tx.bucket(bucketMessages).Delete([]byte(k)); err != nil {
				return err
			}
		}
		n = len(doomed)
		return nil
	})
	return n, err
}
