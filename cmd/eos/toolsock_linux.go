package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"syscall"
)

// peerChecked admits only connections from processes of the user Eos runs as (or root), asked
// of the kernel (SO_PEERCRED): the socket file's mode already says so, this holds even if the
// file's mode or its directory's were loosened.
func peerChecked(ln net.Listener, log *slog.Logger) net.Listener {
	return peerListener{Listener: ln, log: log, admit: []uint32{uint32(os.Getuid()), 0}}
}

type peerListener struct {
	net.Listener
	log   *slog.Logger
	admit []uint32 // the users whose processes may ask
}

func (l peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := l.check(c); err != nil {
			l.log.Warn("refused a connection to the tools' socket", "err", err)
			c.Close()
			continue
		}
		return c, nil
	}
}

func (l peerListener) check(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("asking who connects: %w", cerr)
	}
	if !slices.Contains(l.admit, cred.Uid) {
		return fmt.Errorf("process %d is of user %d, not of the user Eos runs as (%d) or root", cred.Pid, cred.Uid, l.admit[0])
	}
	return nil
}
