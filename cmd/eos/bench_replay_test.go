package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

// replayDoc is a kept input document shaped like the engine's for `create grafana` on eoslab
// (a server, a DNS record, a firewall; Salt and Nomad with nothing to do); one production plan
// in ten opens SSH to the world.
func replayDoc(i int) []byte {
	env, ssh := "staging", "10.0.0.0/8"
	if i%2 == 0 {
		env = "production"
	}
	if i%20 == 0 {
		ssh = "0.0.0.0/0"
	}
	return fmt.Appendf(nil, `{"declared":{},"plan":{"hash":"%064x","id":"%08x","layers":{
"nomad":{"changes":[],"failures":[],"kept":"","status":"nothing","summary":"nothing to do"},
"salt":{"changes":[],"failures":[],"kept":"","status":"nothing","summary":"nothing to do"},
"terraform":{"changes":[
{"action":"create","address":"eoslab_dns_record.main","attrs":["fqdn = (known after apply)","id = (known after apply)","name = \"grafana\"","ttl = 300","type = \"A\"","value = (known after apply)","zone = \"example.org\""],"data_loss":false,"detail":"","forces":[],"reason":"","size":"","unit":"grafana"},
{"action":"create","address":"eoslab_firewall.main","attrs":["id = (known after apply)","name = \"proxy-grafana\"","rules = [{\"direction\":\"in\",\"port\":\"22\",\"protocol\":\"tcp\",\"source_ips\":[\"%s\"]},{\"direction\":\"in\",\"port\":\"443\",\"protocol\":\"tcp\",\"source_ips\":[\"0.0.0.0/0\",\"::/0\"]}]"],"data_loss":false,"detail":"","forces":[],"reason":"","size":"","unit":"grafana"},
{"action":"create","address":"eoslab_server.main","attrs":["id = (known after apply)","image = \"debian-12\"","ipv4_address = (known after apply)","labels = {\"env\":\"%s\",\"managed-by\":\"eos\",\"service\":\"grafana\"}","name = \"proxy-grafana\"","size = \"small\"","status = (known after apply)"],"data_loss":false,"detail":"","forces":[],"reason":"","size":"","unit":"grafana"}],
"failures":[],"kept":"","status":"changes","summary":"+3 ~0 −0"}},"secrets":{"create":[],"reuse":[]}},
"request":{"adopt":false,"asked":[],"channel":"mattermost:ops","environment":"%s","purge_data":false,"purge_secrets":false,
"requester":{"groups":["group:dev"],"handle":"alice","id":"u-alice","platform":"mattermost"},"target":"grafana",
"units":[{"destroy":false,"reason":"","salt_targets":[],"service":"grafana","values":{"port":"3000"}}],"verb":"create"},
"risk":{"data_loss":false,"destroys":0,"replaces":0},
"time":{"hour":10,"local":"2026-11-23T10:00:00Z","minute":0,"utc":"2026-11-23T10:00:00Z","weekday":"Monday","zone":"UTC"}}`,
		i, i, ssh, env, env)
}

// eos policy replay over 10,000 plans kept over 30 days in a bbolt store (the store's own
// reading, as when no Eos holds it), judged with the example library: the time of a whole
// replay, per plan, and the largest heap seen while it runs (it streams: the documents are
// never all held at once).
func BenchmarkPolicyReplay10000Plans(b *testing.B) {
	const plans = 10000
	st, err := store.Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 16 { // concurrent writers share bbolt's group commits
		wg.Go(func() {
			for i := w; i < plans; i += 16 {
				at := now.Add(-time.Duration(i) * 30 * 24 * time.Hour / plans)
				if err := st.KeepPolicyInput(context.Background(), &store.PolicyInput{PlanID: fmt.Sprintf("%08x", i), At: at, Service: "grafana", Env: "production",
					Input: replayDoc(i)}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	set, err := rego.Load(context.Background(), []string{examplePolicies}, 0)
	if err != nil {
		b.Fatal(err)
	}
	from := now.Add(-31 * 24 * time.Hour)
	peak := uint64(0)
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() { // the heap's high-water mark, sampled while the replays run
		defer close(sampled)
		var m runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sum, err := replayPolicy(context.Background(), io.Discard, set, from, func(fn func(*store.PolicyInput) error) error {
			return st.EachPolicyInput(context.Background(), from, fn)
		})
		if err != nil {
			b.Fatal(err)
		}
		if sum.Plans != plans || sum.Denied != plans/20 {
			b.Fatalf("replayed %+v, want %d plans and %d denies", sum, plans, plans/20)
		}
	}
	b.StopTimer()
	close(stop)
	<-sampled
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/plans, "µs/plan")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-peak")
}
