package main

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The tools' socket admits a connection only when the kernel says it comes from a process of
// the user Eos runs as (or root), whatever the socket file's mode has become.
func TestToolSocketAdmitsOnlyTheUserEosRunsAs(t *testing.T) {
	me := uint32(os.Getuid())
	for _, tc := range []struct {
		name  string
		admit []uint32
		want  bool
	}{{"a process of its user", []uint32{me}, true}, {"a process of another user", []uint32{me + 1}, false}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "eos.sock")
			ln, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			pl := peerListener{Listener: ln, log: slog.New(slog.DiscardHandler), admit: tc.admit}
			accepted := make(chan net.Conn, 1)
			go func() {
				if c, err := pl.Accept(); err == nil {
					accepted <- c
				}
			}()
			c, err := net.Dial("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			if tc.want {
				select {
				case sc := <-accepted:
					sc.Close()
				case <-time.After(10 * time.Second):
					t.Fatal("the connection of Eos's own user was not admitted")
				}
				return
			}
			if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
				t.Fatalf("reading from a refused connection: %v, want it closed (EOF)", err)
			}
			select {
			case <-accepted:
				t.Fatal("a connection of another user was admitted")
			default:
			}
		})
	}
}
