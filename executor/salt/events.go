package salt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Limits of the event stream.
const (
	// eventsOpenWait bounds how long opening /events may take, up to its first line.
	eventsOpenWait = 10 * time.Second
	// maxEventSize bounds one event (a ret event carries a whole state return).
	maxEventSize = 64 << 20
	// eventBuffer is how many job events may wait for the follower before the reader
	// stops reading (and TCP pushes back on salt-api).
	eventBuffer = 256
)

// busEvent is one event of the master's bus as salt-api's /events sends it:
// data: {"tag": "salt/job/<jid>/ret/<minion>", "data": {...}}.
type busEvent struct {
	Tag  string          `json:"tag"`
	Data json.RawMessage `json:"data"`
}

// eventStream is an open GET /events. Events arrive on events, which is closed when the
// stream ends; err then says why (nil for a clean end of the stream).
type eventStream struct {
	events <-chan busEvent
	cancel context.CancelFunc
	done   chan struct{}
	err    error
	// quick says the stream was opened only to see returns sooner (streams.go); release
	// gives back its place among the layer's quick streams.
	quick   bool
	release func()
}

// close ends the stream and waits for its reader.
func (s *eventStream) close() {
	s.cancel()
	<-s.done
	if s.release != nil {
		s.release()
	}
}

// openEvents opens salt-api's event stream and returns once salt-api has sent its first bytes
// ("retry: 400"): rest_cherrypy subscribes to the master's bus before it writes that line, so
// a job started afterwards misses none of its events. A 401 (the token expired) logs in once
// more and retries once. The stream lives until close or until ctx ends; it has no overall
// timeout of its own, unlike the other requests.
func (c *client) openEvents(ctx context.Context) (*eventStream, error) {
	token, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	resp, br, err := c.getEvents(sctx, cancel, token)
	if errors.Is(err, errUnauthorized) {
		c.log.Info("salt-api refused the session token for /events; logging in again")
		if token, err = c.relogin(ctx, token); err == nil {
			resp, br, err = c.getEvents(sctx, cancel, token)
		}
	}
	if err != nil {
		cancel()
		return nil, err
	}
	ch := make(chan busEvent, eventBuffer)
	s := &eventStream{events: ch, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(ch)
		defer resp.Body.Close()
		s.err = readEvents(br, func(ev busEvent) bool {
			if !strings.HasPrefix(ev.Tag, "salt/job/") {
				return true
			}
			select {
			case ch <- ev:
				return true
			case <-sctx.Done():
				return false
			}
		})
		if s.err == nil && sctx.Err() == nil {
			s.err = io.EOF
		}
	}()
	return s, nil
}

// getEvents sends GET /events on ctx and reads up to the stream's first byte. If that takes
// longer than eventsOpenWait it gives up by calling cancel, which must end ctx.
func (c *client) getEvents(ctx context.Context, cancel context.CancelFunc, token string) (*http.Response, *bufio.Reader, error) {
	u := c.base.JoinPath("/events")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")
	// The token goes in the header, never in the URL (?token=), which proxies log.
	req.Header.Set("X-Auth-Token", token)
	slow := time.AfterFunc(eventsOpenWait, cancel)
	resp, br, err := c.firstBytes(req)
	if !slow.Stop() && ctx.Err() != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, nil, fmt.Errorf("GET %s: no event arrived within %s (a proxy buffering the stream?)", u.Redacted(), eventsOpenWait)
	}
	return resp, br, err
}

// firstBytes sends req and checks that the answer is an event stream that has begun.
func (c *client) firstBytes(req *http.Request) (*http.Response, *bufio.Reader, error) {
	u := req.URL.Redacted()
	resp, err := c.stream.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, nil, errUnauthorized
		}
		return nil, nil, fmt.Errorf("GET %s: salt-api answered %s: %s", u, resp.Status, excerpt(data))
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("GET %s: the answer is %q, not an event stream", u, mt)
	}
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	if _, err := br.Peek(1); err != nil {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("GET %s: reading the stream: %w", u, err)
	}
	return resp, br, nil
}

// readEvents reads a Server-Sent-Events stream, handing each event's data (the lines after
// "data:", joined) to emit until emit returns false or the stream ends. Fields other than data
// (salt-api's "tag:" and "retry:") and comments are skipped; so is an event whose data is not
// salt-api's {"tag": ..., "data": ...}.
func readEvents(r *bufio.Reader, emit func(busEvent) bool) error {
	var data []byte
	for {
		line, err := readLine(r)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		switch {
		case len(line) == 0:
			if len(data) == 0 {
				continue
			}
			var ev busEvent
			if json.Unmarshal(data, &ev) == nil && ev.Tag != "" && !emit(ev) {
				return nil
			}
			data = data[:0]
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			if len(data)+len(v) > maxEventSize {
				return fmt.Errorf("an event is larger than %d bytes", maxEventSize)
			}
			data = append(data, v...)
		}
	}
}

// readLine reads one line without its end (\n or \r\n), however long, up to maxEventSize.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxEventSize {
			return nil, fmt.Errorf("an event line is longer than %d bytes", maxEventSize)
		}
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return bytes.TrimRight(line, "\r\n"), nil
		default:
			return nil, err
		}
	}
}

// jobTag is a job event's tag taken apart: salt/job/<jid>/prog/<minion>/<run> (a state
// finished; minions fire it when state events are on) or salt/job/<jid>/ret/<minion> (the
// minion's whole return).
type jobTag struct {
	jid, kind, minion string
	run               int
}

// parseJobTag reads a job event's tag; ok is false for other events (new, and others' tags).
func parseJobTag(tag string) (t jobTag, ok bool) {
	parts := strings.SplitN(tag, "/", 5)
	if len(parts) != 5 || parts[0] != "salt" || parts[1] != "job" || parts[4] == "" {
		return t, false
	}
	t.jid, t.kind = parts[2], parts[3]
	switch t.kind {
	case "ret":
		t.minion = parts[4]
		return t, true
	case "prog":
		i := strings.LastIndexByte(parts[4], '/')
		if i <= 0 {
			return t, false
		}
		run, err := strconv.Atoi(parts[4][i+1:])
		if err != nil {
			return t, false
		}
		t.minion, t.run = parts[4][:i], run
		return t, true
	}
	return t, false
}

// progEvent is a state progress event's data: the minion's event load, whose data holds the
// state's return (without its module and function: only __id__, name, __run_num__, result,
// changes, comment) and len, the number of states in the run (unused: the plan's count is
// the total).
type progEvent struct {
	Data struct {
		Ret struct {
			rawState
			ID   string          `json:"__id__"`
			Name json.RawMessage `json:"name"`
		} `json:"ret"`
	} `json:"data"`
}

// parseProg reads a state progress event into the state it reports.
func parseProg(raw json.RawMessage) (stateResult, error) {
	var p progEvent
	if err := json.Unmarshal(raw, &p); err != nil {
		return stateResult{}, fmt.Errorf("reading a state progress event: %w", err)
	}
	r := p.Data.Ret
	s := stateResult{ID: r.ID, Name: commentText(r.Name), Result: r.Result, Changed: nonEmpty(r.Changes),
		Comment: commentText(r.Comment), RunNum: r.RunNum}
	if s.Name == "" {
		s.Name = strings.Trim(string(r.Name), `"`)
	}
	if s.ID == "" && s.Name == "" {
		return stateResult{}, errors.New("a state progress event names no state")
	}
	return s, nil
}
