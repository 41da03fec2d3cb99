package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/eosbot/eos/adapters"
)

// metrics are the engine's Prometheus series.
type metrics struct {
	reg         *prometheus.Registry
	messages    *prometheus.CounterVec
	parseErrors prometheus.Counter
	plans       *prometheus.CounterVec
	approvals   *prometheus.CounterVec
	runs        *prometheus.CounterVec
	layerTime   *prometheus.HistogramVec
	drift       *prometheus.GaugeVec
	dropped     *prometheus.CounterVec // events the dispatcher's full queue refused (dispatch.go)
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		messages: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_messages_total",
			Help: "Messages addressed to Eos, by platform."}, []string{"platform"}),
		parseErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "eos_parse_errors_total",
			Help: "Messages Eos could not parse."}),
		plans: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_plans_total",
			Help: "Plans previewed, by verb and environment."}, []string{"verb", "env"}),
		approvals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_reactions_total",
			Help: "Reactions on previews, by what they did: approval, rejection, withdrawal, refused, ignored."}, []string{"outcome"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_runs_total",
			Help: "Runs finished, by outcome."}, []string{"outcome"}),
		layerTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "eos_layer_apply_seconds",
			Help: "Time each layer took to apply.", Buckets: prometheus.ExponentialBuckets(0.5, 2, 12)}, []string{"layer", "status"}),
		drift: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "eos_drift_services",
			Help: "Services by the status of their latest drift check."}, []string{"status"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_events_dropped_total",
			Help: "Messages and reactions dropped because the queue stayed full, by platform and kind."}, []string{"platform", "kind"}),
	}
	m.reg.MustRegister(m.messages, m.parseErrors, m.plans, m.approvals, m.runs, m.layerTime, m.drift, m.dropped,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// Handler serves the operations endpoints: /metrics (Prometheus) and /healthz (adapters
// running and connected, store writable, work directories writable; 503 when not healthy).
func (e *Engine) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(e.m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		h := e.Health(r.Context())
		w.Header().Set("Content-Type", "application/json")
		if !h.OK {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		json.NewEncoder(w).Encode(h)
	})
	return mux
}

// Health is what /healthz reports.
type Health struct {
	OK    bool   `json:"ok"`
	Store string `json:"store"`
	// Role is "leader" or "standby" when replicas share the store; a standby is healthy with
	// no adapters (it connects to chat only once it leads).
	Role string `json:"role,omitempty"`
	// WorkDirs is "writable" when a run can write its working files in every Config.WorkDirs,
	// else the first directory that cannot be written and why; omitted when none is configured.
	WorkDirs string `json:"work_dirs,omitempty"`
	// Epoch is the leadership this replica writes for (0 while it stands by): it grows with
	// every takeover.
	Epoch uint64 `json:"epoch,omitempty"`
	// Adapters is each adapter's state: "running" (an adapter without a connection to its
	// platform, such as the console), "connected", "disconnected: <why>", or "stopped[: why]".
	Adapters map[string]string `json:"adapters"`
	Time     time.Time         `json:"time"`
}

// Adapter states on /healthz.
const (
	adapterRunning      = "running"
	adapterConnected    = "connected"
	adapterDisconnected = "disconnected: "
)

// Health checks that the store accepts writes and that every adapter is still running and,
// when it holds a connection to its platform (adapters.Connection), connected.
func (e *Engine) Health(ctx context.Context) Health {
	h := Health{OK: true, Store: "writable", Adapters: map[string]string{}, Time: e.now().UTC()}
	if e.cfg.Leader != nil {
		h.Role = e.cfg.Leader.Role()
		if h.Role == "leader" {
			h.Epoch = e.st.Epoch()
		}
	}
	if err := e.st.Writable(ctx); err != nil {
		h.OK, h.Store = false, err.Error()
	}
	if len(e.cfg.WorkDirs) > 0 {
		h.WorkDirs = "writable"
		if d, err := e.unwritableWorkDir(); err != nil {
			h.OK, h.WorkDirs = false, fmt.Sprintf("%s: a run cannot write its working files there: %v", d, err)
		}
	}
	e.chat.mu.Lock()
	states := maps.Clone(e.chat.states)
	conns := map[string]adapters.Connection{}
	for name, a := range e.chat.adapters {
		if c, ok := a.(adapters.Connection); ok {
			conns[name] = c
		}
	}
	e.chat.mu.Unlock()
	for name, state := range states {
		if c, ok := conns[name]; ok && state == adapterRunning {
			state = adapterConnected
			if err := c.Connected(); err != nil {
				state = adapterDisconnected + err.Error()
			}
		}
		h.Adapters[name] = state
		if state != adapterRunning && state != adapterConnected {
			h.OK = false
		}
	}
	return h
}

// setState records an adapter's state for /healthz.
func (e *Engine) setState(name, state string) {
	e.chat.mu.Lock()
	defer e.chat.mu.Unlock()
	e.chat.states[name] = state
}
