package store

import (
	"context"
	"errors"
	"strings"
	"time"
)

// bucketHandles holds the policy's handle pins: platform + "\x00" + handle → HandlePin.
var bucketHandles = []byte("handles")

func init() { allBuckets = append(allBuckets, bucketHandles) }

// HandlePin is the account a handle the policy names stands for on one platform: the one that
// held the handle when Eos first looked it up. The policy's "bob" keeps meaning that account
// when it is renamed, and means nobody else when someone else takes the handle, until an
// operator forgets the pin (ForgetHandle).
type HandlePin struct {
	Platform string `json:"platform"`
	// Handle is the handle as the policy names it, in lower case.
	Handle string `json:"handle"`
	// ID is the account's immutable ID on Platform; Name its handle when pinned. An empty ID
	// is a vacant pin: no account held the handle when Eos first looked it up, so it names
	// nobody (whoever takes it later is not known to be the person meant).
	ID    string    `json:"id"`
	Name  string    `json:"name,omitempty"`
	Since time.Time `json:"since"`
}

// Vacant reports whether the pin records that nobody held the handle when Eos first looked.
func (p HandlePin) Vacant() bool { return p.ID == "" }

func handleKey(platform, handle string) string {
	return platform + "\x00" + strings.ToLower(handle)
}

// HandlePin is the pin of handle on platform, or ErrNotFound.
func (s *Store) HandlePin(ctx context.Context, platform, handle string) (*HandlePin, error) {
	var pin *HandlePin
	err := s.view(ctx, func(tx txn) error {
		var err error
		pin, err = get[HandlePin](tx, bucketHandles, handleKey(platform, handle))
		return err
	})
	return pin, err
}

// PinHandle pins pin.Handle on pin.Platform to pin.ID unless it is pinned already, with an
// audit line (e) in the same transaction, and returns the pin in force: the earlier one when
// there is one (two first looks at once pin once); created reports that this call made it.
func (s *Store) PinHandle(ctx context.Context, pin HandlePin, e Entry) (got HandlePin, created bool, err error) {
	pin.Handle = strings.ToLower(pin.Handle)
	err = s.update(ctx, func(tx txn) error {
		created = false // a retried transaction starts over
		old, err := get[HandlePin](tx, bucketHandles, handleKey(pin.Platform, pin.Handle))
		switch {
		case err == nil:
			got = *old
			return nil
		case !errors.Is(err, ErrNotFound):
			return err
		}
		got, created = pin, true
		if err := put(tx, bucketHandles, handleKey(pin.Platform, pin.Handle), pin); err != nil {
			return err
		}
		return appendTx(tx, e)
	})
	return got, created, err
}

// HandlePins lists every pin, by platform and handle.
func (s *Store) HandlePins(ctx context.Context) ([]HandlePin, error) {
	var out []HandlePin
	err := s.view(ctx, func(tx txn) error {
		out = nil
		return each(tx, bucketHandles, func(_ string, p *HandlePin) bool {
			out = append(out, *p)
			return true
		})
	})
	return out, err
}

// ForgetHandle removes the pin of handle on platform, with an audit line (e) in the same
// transaction, so the next look-up pins whoever holds the handle then. It returns the pin it
// removed, or ErrNotFound.
func (s *Store) ForgetHandle(ctx context.Context, platform, handle string, e Entry) (*HandlePin, error) {
	var gone *HandlePin
	err := s.update(ctx, func(tx txn) error {
		gone = nil
		p, err := get[HandlePin](tx, bucketHandles, handleKey(platform, handle))
		if err != nil {
			return err
		}
		gone = p
		if err := tx.bucket(bucketHandles).Delete([]byte(handleKey(platform, handle))); err != nil {
			return err
		}
		return appendTx(tx, e)
	})
	return gone, err
}
