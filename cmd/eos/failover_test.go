package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/store"
)

var planIDRe = regexp.MustCompile(`Plan ([0-9a-f]{8})`)

// Three `eos serve` replicas on a real PostgreSQL and the real Mattermost server, through
// every way a leader goes away: killed with a plan pending (approved in the gap), killed in
// the middle of an apply, frozen past its lease and woken after another took over, and its
// database restarted. Every request gets exactly one answer across the replicas, and no plan
// runs twice.
func TestFailoverThreeReplicas(t *testing.T) {
	s := mmtest.Real(t)
	dsn, restartPostgres := privatePostgres(t)
	ch := s.Channel(t, "failover")
	c := newCluster(t, dsn, s, ch, 3, "EOSLAB_DELAY=1500ms")
	st, err := store.OpenPostgres(context.Background(), dsn, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// 1. The leader is killed while a plan waits; bob approves while nobody leads; the next
	// leader counts his approval and runs the plan once.
	first := c.leader()
	req := s.Alice.Say(t, ch.Id, "", "@eos create grafana")
	preview := c.waitBot(req.Id, "React ✅ to approve")
	id := planIDRe.FindStringSubmatch(preview.Message)[1]
	// A plan pending: posted and recorded. (A kill between the two is another case: the next
	// leader posts the preview again, TestPreviewNeverRecordedIsPostedAgain in bot.)
	c.until("the preview recorded", func() bool {
		_, err := st.PlanByPost(context.Background(), adapters.PostRef{Platform: "mattermost", Channel: ch.Id, ID: preview.Id})
		return err == nil
	})
	killed := c.kill(first)
	s.Bob.React(t, preview.Id, "white_check_mark")
	gap := s.Carol.Say(t, ch.Id, "", "@eos history grafana") // asked while nobody leads
	progress := c.waitBot(req.Id, "Run "+id)
	t.Logf("failover with a plan pending: %s from the kill to the new leader's first post", time.UnixMilli(progress.CreateAt).Sub(killed).Round(time.Millisecond))
	c.waitBot(req.Id, "Run "+id+" · done in")
	c.waitBot(gap.Id, "grafana")
	if got := c.botPosts(gap.Id); len(got) != 1 {
		t.Fatalf("a request made while nobody led got %d answers, want 1: %v", len(got), messages(got))
	}
	second := c.leader()
	if second == first {
		t.Fatal("the killed replica still leads")
	}
	if got := c.botPosts(req.Id); len(got) != 2 {
		t.Fatalf("the request got %d bot posts, want the preview and one progress post: %v", len(got), messages(got))
	}
	runs, err := st.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 || runs[0].ID != id || runs[0].State != store.RunDone {
		t.Fatalf("runs = %+v, %v; want plan %s run once, done", runs, err, id)
	}
	c.restart(first) // its supervisor brings the killed replica back, as a standby

	// 2. The leader is killed in the middle of an apply: the next one marks the run
	// interrupted, announces it once in its thread, frees its lock and applies nothing again.
	req = s.Alice.Say(t, ch.Id, "", "@eos create jenkins")
	preview = c.waitBot(req.Id, "React ✅ to approve")
	id = planIDRe.FindStringSubmatch(preview.Message)[1]
	s.Bob.React(t, preview.Id, "white_check_mark")
	c.waitBot(req.Id, "Run "+id, "Terraform ⏳")
	c.kill(second)
	c.waitBot(req.Id, "Run "+id, "interrupted", "Terraform ⏳ interrupted, maybe partly applied")
	third := c.leader()
	if got := c.botPosts(req.Id); len(got) != 2 {
		t.Fatalf("the interrupted run's thread has %d bot posts, want the preview and its progress post: %v", len(got), messages(got))
	}
	r, err := st.Run(context.Background(), id)
	if err != nil || r.State != store.RunInterrupted {
		t.Fatalf("run %s = %+v, %v; want interrupted", id, r, err)
	}
	if locks, _ := st.Locks(context.Background()); len(locks) != 0 {
		t.Fatalf("locks after the interrupted run: %+v", locks)
	}
	c.restart(second)

	// 3. The leader freezes (SIGSTOP) past its lease: another takes over and answers; the
	// frozen one, woken, posts nothing, starts nothing and steps down, saying why.
	if err := syscall.Kill(third.cmd.Process.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	var fourth *replica
	c.until("another replica leading", func() bool {
		for _, r := range c.replicas {
			if r != third && r.alive() {
				if h, err := r.health(); err == nil && h.Role == "leader" && h.Adapters["mattermost"] == "connected" {
					fourth = r
					return true
				}
			}
		}
		return false
	})
	t.Logf("takeover from a frozen leader: %s", time.Since(stopped).Round(time.Millisecond))
	req = s.Carol.Say(t, ch.Id, "", "@eos status grafana")
	c.waitBot(req.Id, "grafana")
	if err := syscall.Kill(third.cmd.Process.Pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-third.exited:
	case <-time.After(time.Minute):
		t.Fatalf("the woken leader did not step down:\n%s", third.log.String())
	}
	log := third.log.String()
	i := strings.Index(log, "stepped down")
	if i < 0 {
		t.Fatalf("the woken leader's log does not say it stepped down:\n%s", log)
	}
	t.Logf("the woken leader: %s", firstLine(log[i:]))
	// Ask once more: if the woken one were still answering, this would get two answers.
	req2 := s.Alice.Say(t, ch.Id, "", "@eos status jenkins")
	c.waitBot(req2.Id, "jenkins")
	for _, root := range []string{req.Id, req2.Id} {
		if got := c.botPosts(root); len(got) != 1 {
			t.Fatalf("a request got %d answers, want 1: %v", len(got), messages(got))
		}
	}
	if c.leader() != fourth {
		t.Fatal("leadership moved again without a reason")
	}

	// 4. PostgreSQL restarts under the leader: it keeps leading or steps down cleanly, a
	// leader answers afterwards, and no plan ever ran twice.
	before := c.roles()
	restartPostgres()
	req = s.Alice.Say(t, ch.Id, "", "@eos status nextcloud")
	c.waitBot(req.Id, "nextcloud")
	if got := c.botPosts(req.Id); len(got) != 1 {
		t.Fatalf("after the database restart a request got %d answers: %v", len(got), messages(got))
	}
	t.Logf("roles before the database restart %v, after %v", before, c.roles())
	runs, err = st.Runs(context.Background(), nil)
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs after every failover = %+v, %v; want the two plans run once each", runs, err)
	}
}

// messages lists posts' texts, for failure messages.
func messages(posts []*model.Post) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = fmt.Sprintf("%q (edited %t)", p.Message, p.EditAt > 0)
	}
	return out
}

// BenchmarkFailover kills the leader of three replicas ten times (restarting each killed one
// as a standby) and measures, each time, from the kill to the new leader's answer to a
// request posted right after it: the time nobody answers. It reports the median and maximum.
func BenchmarkFailover(b *testing.B) {
	s := mmtest.Real(b)
	dsn, _ := privatePostgres(b)
	ch := s.Channel(b, "failover-bench")
	c := newCluster(b, dsn, s, ch, 3)
	const kills = 10
	for range b.N {
		var gaps []time.Duration
		for range kills {
			leader := c.leader()
			killed := c.kill(leader)
			req := s.Alice.Say(b, ch.Id, "", "@eos status grafana")
			answer := c.waitBot(req.Id, "grafana")
			gaps = append(gaps, time.UnixMilli(answer.CreateAt).Sub(killed))
			c.restart(leader)
		}
		slices.Sort(gaps)
		b.ReportMetric(float64(gaps[len(gaps)/2].Milliseconds()), "ms-median")
		b.ReportMetric(float64(gaps[len(gaps)-1].Milliseconds()), "ms-max")
		b.Logf("kill → first answer over %d kills: %v", kills, gaps)
	}
}
