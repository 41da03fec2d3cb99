package executor

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/url"
	"regexp"
	"strings"
	"syscall"
)

// CauseKind is what a failed layer's error was about, so the run's post can close with advice
// that fits it instead of always "fix the request".
type CauseKind string

const (
	// CauseRequest is a failure the layer's server reported about the work itself: a Salt
	// state that failed, a Terraform error in the configuration, a job Nomad refused. Fixing
	// the request (or the blueprint) is what helps.
	CauseRequest CauseKind = "request"
	// CauseServer is a server that did not answer (refused, reset, unreachable, unknown host,
	// or gone for longer than a layer waits for a restart).
	CauseServer CauseKind = "server"
	// CauseDisk is a full disk ("no space left on device"); Path says where when the error
	// names it.
	CauseDisk CauseKind = "disk"
	// CauseTimeout is a layer that did not finish within the runner's layer timeout.
	CauseTimeout CauseKind = "timeout"
	// CauseUnknown is a failure Eos cannot place.
	CauseUnknown CauseKind = "unknown"
)

// Cause is a failed layer's error, classified.
type Cause struct {
	Kind CauseKind `json:"kind"`
	// Server names the server that did not answer, for CauseServer ("salt-api"), and its
	// address when the error has it (Address: "127.0.0.1:8000").
	Server  string `json:"server,omitempty"`
	Address string `json:"address,omitempty"`
	// Path is the file or directory a CauseDisk error names.
	Path string `json:"path,omitempty"`
}

// serverName is what people call the server a layer talks to.
func serverName(l LayerName) string {
	switch l {
	case Salt:
		return "salt-api"
	case Terraform:
		return "the Terraform provider's API"
	case Nomad:
		return "Nomad"
	case Vault:
		return "Vault"
	}
	return l.Title()
}

// Classify says what err, a failure of layer, was about. It looks at the error's chain first
// (UnknownError, Transient errors, fs.PathError, deadlines) and at its text second, so errors
// that only reach Eos as text (Terraform's, Salt's comments) are placed too.
func Classify(layer LayerName, err error) Cause {
	if err == nil {
		return Cause{Kind: CauseUnknown}
	}
	c := ClassifyText(layer, err.Error())
	var unknown *UnknownError
	var pe *fs.PathError
	switch {
	case errors.Is(err, syscall.ENOSPC):
		c.Kind = CauseDisk
		if errors.As(err, &pe) {
			c.Path = pe.Path
		}
	case errors.As(err, &unknown), Transient(err):
		c.Kind, c.Server = CauseServer, serverName(layer)
	case errors.Is(err, context.DeadlineExceeded):
		if c.Kind != CauseServer && c.Kind != CauseDisk {
			c.Kind = CauseTimeout
		}
	}
	if c.Kind == CauseServer && c.Address == "" {
		c.Address = addressOf(err)
	}
	return c
}

var (
	// "dial tcp 127.0.0.1:8000: connect: connection refused", "lookup salt.example: no such host"
	dialRe   = regexp.MustCompile(`dial (?:tcp|udp|unix)[46]? ([^\s:]+(?::\d+)?)`)
	lookupRe = regexp.MustCompile(`lookup ([^\s:]+)`)
	// "open /var/lib/eos/x.tfplan: no space left on device", "write /tmp/y: no space left …"
	diskRe = regexp.MustCompile(`(?:open|write|mkdir|create|rename|sync|close|copy)\s+(/[^\s:]*):\s*no space left on device`)
)

var serverTexts = []string{"connection refused", "connection reset", "no such host", "i/o timeout",
	"not answering", "no route to host", "network is unreachable", "outcome unknown", "eof"}

// ClassifyText classifies a failure from its text alone: what a stored run record keeps, and
// what tools that report errors as text give.
func ClassifyText(layer LayerName, text string) Cause {
	low := strings.ToLower(text)
	switch {
	case strings.TrimSpace(text) == "":
		return Cause{Kind: CauseUnknown}
	case strings.Contains(low, "no space left on device"):
		c := Cause{Kind: CauseDisk}
		if m := diskRe.FindStringSubmatch(text); m != nil {
			c.Path = m[1]
		}
		return c
	case strings.HasPrefix(low, "timed out after"):
		return Cause{Kind: CauseTimeout}
	}
	for _, s := range serverTexts {
		if containsWord(low, s) {
			c := Cause{Kind: CauseServer, Server: serverName(layer)}
			if m := dialRe.FindStringSubmatch(text); m != nil {
				c.Address = m[1]
			} else if m := lookupRe.FindStringSubmatch(text); m != nil {
				c.Address = m[1]
			}
			return c
		}
	}
	if strings.Contains(low, "context deadline exceeded") || strings.Contains(low, "timeout") {
		return Cause{Kind: CauseTimeout}
	}
	return Cause{Kind: CauseRequest}
}

// containsWord is strings.Contains, except that a short word ("eof") must stand alone.
func containsWord(s, w string) bool {
	if len(w) > 3 {
		return strings.Contains(s, w)
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !('a' <= r && r <= 'z') }) {
		if f == w {
			return true
		}
	}
	return false
}

// addressOf is the host (and port) of the first URL or network operation in err's chain.
func addressOf(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return u.Host
		}
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Addr != nil {
		return oe.Addr.String()
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return de.Name
	}
	return ""
}

// causeOf classifies a failed layer's error: from the error itself, or from the text the layer
// put in the result when that says more (a layer that words its failure itself).
func causeOf(lr LayerResult, err error) *Cause {
	if strings.HasPrefix(lr.Error, "timed out after") {
		return &Cause{Kind: CauseTimeout}
	}
	c := Classify(lr.Layer, err)
	if c.Kind == CauseRequest || c.Kind == CauseUnknown {
		if t := ClassifyText(lr.Layer, lr.Error); t.Kind != CauseRequest && t.Kind != CauseUnknown {
			c = t
		}
	}
	return &c
}
