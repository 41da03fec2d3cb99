//go:build !unix

package mmtest

import (
	"os"
	"testing"
)

// Elsewhere than on Unix, tests of different processes do not coordinate: Restart may pull
// the server from under another package's tests.
func holdShared(testing.TB, string) *os.File { return nil }
func lockExclusive(*os.File) error           { return nil }
func lockShared(*os.File) error              { return nil }
