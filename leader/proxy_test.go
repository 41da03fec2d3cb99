package leader

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// proxy forwards TCP connections to the real PostgreSQL, so a test can make the server
// unreachable (nothing listens yet) or cut the network under an open session (bytes are held,
// sockets stay open, as when a cable is pulled).
type proxy struct {
	addr     string // host:port the elector dials
	upstream string // host:port of PostgreSQL

	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
	closed bool
	cut    chan struct{} // closed when the network is cut
	once   sync.Once
}

// newProxy reserves a free loopback port for a proxy to upstreamDSN's server and returns the
// proxy and a DSN that reaches the same database through it. Nothing listens on the port until
// start.
func newProxy(t *testing.T, upstreamDSN string) (*proxy, string) {
	t.Helper()
	u, err := url.Parse(upstreamDSN)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{addr: ln.Addr().String(), upstream: u.Host, cut: make(chan struct{})}
	ln.Close()
	u.Host = p.addr
	t.Cleanup(p.close)
	return p, u.String()
}

// start listens on the reserved port and forwards every connection.
func (p *proxy) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("proxy listening on %s again: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.upstream)
			if err != nil {
				down.Close()
				continue
			}
			p.mu.Lock()
			if p.closed {
				p.mu.Unlock()
				down.Close()
				up.Close()
				return
			}
			p.conns = append(p.conns, down, up)
			p.mu.Unlock()
			go p.pipe(up, down)
			go p.pipe(down, up)
		}
	}()
}

// pipe copies src to dst until either closes; once the network is cut it forwards nothing.
func (p *proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-p.cut:
			return // held, never delivered; the sockets stay open until close
		default:
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				err = werr
			}
		}
		if err != nil {
			if err != io.EOF {
				dst.Close()
			} else if tc, ok := dst.(*net.TCPConn); ok {
				tc.CloseWrite()
			}
			return
		}
	}
}

// cutNetwork stops forwarding in both directions without closing any socket.
func (p *proxy) cutNetwork() { p.once.Do(func() { close(p.cut) }) }

func (p *proxy) close() {
	p.cutNetwork()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.ln != nil {
		p.ln.Close()
	}
	for _, c := range p.conns {
		c.Close()
	}
}
