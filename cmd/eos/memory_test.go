package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// BenchmarkResidentMemory starts `eos serve` (console adapter, stdin held open) and reports
// its resident memory once /healthz answers: idle on an empty store, and with 1,000 pending
// plans stored.
func BenchmarkResidentMemory(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "eos")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("building eos: %v\n%s", err, out)
	}
	for _, plans := range []int{0, 1000} {
		b.Run(fmt.Sprintf("plans=%d", plans), func(b *testing.B) {
			var rss float64
			for i := 0; i < b.N; i++ {
				rss = residentMB(b, bin, plans)
			}
			b.ReportMetric(rss, "RSS-MB")
		})
	}
}

func residentMB(b *testing.B, bin string, plans int) float64 {
	data := b.TempDir()
	if plans > 0 {
		st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < plans; i++ {
			p := &store.Plan{ID: fmt.Sprintf("%08x", i), State: store.PlanPending, Text: "@eos create grafana",
				Requester: adapters.User{Name: "alice"}, Preview: adapters.PostRef{Platform: "console", Channel: "local", ID: strconv.Itoa(i)},
				Plan:    executor.Plan{Spec: executor.Spec{Verb: "create", Target: "grafana", Env: fmt.Sprintf("env%d", i)}, Hash: "h"},
				Created: time.Now(), Expires: time.Now().Add(time.Hour)}
			if err := st.CreatePlan(p); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "EOS_DATA_DIR="+data, "EOS_LISTEN="+addr, "EOS_LOG_LEVEL=error")
	stdin, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("eos did not become healthy: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // polling a process we started, bounded by the deadline
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
