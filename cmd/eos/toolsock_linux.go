package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"syscall"
)

// peerChecked admits only connections from processes of the user Eos runs as (or root), asked
// of the kernel (SO_PEERCRED): the socket file's mode already says so, this holds even if the
// file's mode or its directory's were loosened.
func peerChecked(ln net.Listener, log *slog.Logger) net.Listener {
	return peerListener{Listener: ln, log: log}
}

type peerListener struct {
	net.Listener
	log *slog.Logger
}

func (l peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := samePeer(c); err != nil {
			l.log.Warn("refused a connection to the tools' socket", "err", err)
			c.Close()
			continue
		}
		return c, nil
	}
}

func samePeer(c net.Conn) error {
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
	if me := uint32(os.Getuid()); cred.Uid != me && cred.Uid != 0 {
		return fmt.Errorf("process %d of user %d is not of user %d, which runs Eos", cred.Pid, cred.Uid, me)
	}
	return nil
}
