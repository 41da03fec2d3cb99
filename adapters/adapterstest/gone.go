// Package adapterstest holds the checks the chat adapters' tests share. It imports only
// adapters and is imported only by tests.
package adapterstest

import (
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// GoneCase is one operation on a post, by adapter A, and what its error must be. The engine
// cancels a pending plan whose preview is adapters.ErrNoSuchPost, so only a post that is
// really gone may be; a refused token or an unknown channel must stay an ordinary error.
type GoneCase[A any] struct {
	Name string
	Op   func(A, adapters.PostRef) error
	A    A
	Post adapters.PostRef
	// ErrText must be in the error; "" means no error.
	ErrText string
	// Gone is whether errors.Is(err, adapters.ErrNoSuchPost) must hold. A gone post is never
	// adapters.ErrNotPermitted as well.
	Gone bool
}

// CheckGone runs each case as a subtest.
func CheckGone[A any](t *testing.T, cases []GoneCase[A]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			err := tt.Op(tt.A, tt.Post)
			if (tt.ErrText == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.ErrText) {
				t.Errorf("err = %v, want %q", err, tt.ErrText)
			}
			if got := errors.Is(err, adapters.ErrNoSuchPost); got != tt.Gone {
				t.Errorf("errors.Is(%v, ErrNoSuchPost) = %t, want %t", err, got, tt.Gone)
			}
			if tt.Gone && errors.Is(err, adapters.ErrNotPermitted) {
				t.Errorf("a missing post is also ErrNotPermitted: %v", err)
			}
		})
	}
}
