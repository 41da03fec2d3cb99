package main

import (
	"context"
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
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/mattermost/mattermost/server/public/model"
)

// BenchmarkResidentMemory starts `eos serve` (console adapter, stdin held open) and reports
// its resident memory once /healthz answers: idle on an empty store, and with 1,000 pending
// plans stored. With the test Mattermost (scripts/testenv), it also measures Eos connected to
// it instead of the console, measured once Eos has answered alice's `@eos help` there.
func BenchmarkResidentMemory(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "eos")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("building eos: %v\n%s", err, out)
	}
	for _, plans := range []int{0, 1000} {
		b.Run(fmt.Sprintf("plans=%d", plans), func(b *testing.B) {
			var rss float64
			for i := 0; i < b.N; i++ {
				rss = residentMB(b, bin, plans, func() {})
			}
			b.ReportMetric(rss, "RSS-MB")
		})
	}
	b.Run("mattermost", func(b *testing.B) {
		mm := mmtest.Real(b)
		env := []string{"EOS_MATTERMOST_URL=" + mm.URL, "EOS_MATTERMOST_TOKEN=" + mm.BotToken,
			"EOS_MATTERMOST_CHANNELS=" + mm.Team.Name + "/" + mm.Infra.Name}
		answered := func() {
			ask := mm.Alice.Say(b, mm.Infra.Id, "", "@eos help "+mmtest.Nonce())
			mm.WaitPost(b, ask.Id, func(p *model.Post) bool { return p.UserId == mm.Bot.Id })
		}
		var rss float64
		for i := 0; i < b.N; i++ {
			rss = residentMB(b, bin, 0, answered, env...)
		}
		b.ReportMetric(rss, "RSS-MB")
	})
}

// residentMB starts eos serve on a data dir holding plans pending plans, with env added, and
// reads its VmRSS once /healthz answers and ready has returned.
func residentMB(b *testing.B, bin string, plans int, ready func(), env ...string) float64 {
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
			if err := st.CreatePlan(context.Background(), p); err != nil {
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
	cmd.Env = append(cmd.Env, env...)
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
	ready()
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
