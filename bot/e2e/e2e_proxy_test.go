package e2e_test

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// cutProxy forwards loopback TCP connections to a server, and can cut them: a bot that talks
// to the server through it loses its websocket and cannot reconnect until the proxy is
// restored, while people, who talk to the server directly, go on. Unlike a server restart,
// the bot is certain to be away for as long as the test wants.
type cutProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
}

// newCutProxy proxies to the host of serverURL until the test ends.
func newCutProxy(t *testing.T, serverURL string) *cutProxy {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: u.Host, conns: map[net.Conn]struct{}{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		p.Cut()
	})
	return p
}

// URL is the proxy's http://127.0.0.1:PORT.
func (p *cutProxy) URL() string { return "http://" + p.ln.Addr().String() }

// Cut closes every connection and refuses new ones until Restore.
func (p *cutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
}

// Restore lets connections through again.
func (p *cutProxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

// serve forwards c to the target both ways until either side closes or the proxy is cut.
func (p *cutProxy) serve(c net.Conn) {
	if !p.track(c) {
		c.Close()
		return
	}
	defer p.untrack(c)
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(up) {
		up.Close()
		c.Close()
		return
	}
	defer p.untrack(up)
	var wg sync.WaitGroup
	wg.Add(2)
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		io.Copy(dst, src)
		dst.Close()
		src.Close()
	}
	go pipe(up, c)
	go pipe(c, up)
	wg.Wait()
}

// track records c unless the proxy is cut.
func (p *cutProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *cutProxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}
