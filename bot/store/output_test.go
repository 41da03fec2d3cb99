package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A run's output is stored in order, read from any line on, capped at MaxOutputLines, kept
// apart from other runs' output, and forgotten with old runs.
func TestRunOutput(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		line := func(i int) OutputLine { return OutputLine{At: t0, Layer: "terraform", Text: fmt.Sprintf("line %d", i)} }
		var first []OutputLine
		for i := range 3 {
			first = append(first, line(i))
		}
		if err := s.AppendOutput(context.Background(), "run-a", 0, first); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendOutput(context.Background(), "run-a", 3, []OutputLine{line(3)}); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendOutput(context.Background(), "run-ab", 0, []OutputLine{line(99)}); err != nil { // a prefix of another id
			t.Fatal(err)
		}
		got, err := s.Output(context.Background(), "run-a", 2)
		if err != nil || len(got) != 2 || got[0].Text != "line 2" || got[1].Text != "line 3" {
			t.Errorf("Output(run-a, 2) = %+v, %v; want lines 2 and 3", got, err)
		}
		if err := s.AppendOutput(context.Background(), "run-a", MaxOutputLines-1, []OutputLine{line(7), line(8)}); err != nil {
			t.Fatal(err)
		}
		if all, _ := s.Output(context.Background(), "run-a", 0); len(all) != 5 || all[4].Text != "line 7" {
			t.Errorf("after writing past the cap, run-a has %d lines ending %+v; want 5, the last line 7", len(all), all[len(all)-1])
		}

		for id, started := range map[string]time.Time{"run-a": t0, "run-ab": t0.Add(48 * time.Hour)} {
			if err := s.StartRun(context.Background(), &Run{ID: id, State: RunRunning, Started: started, Keys: []string{"local/" + id}}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishRun(context.Background(), id, RunDone, nil, started, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.PruneOutput(context.Background(), t0.Add(24*time.Hour)); err != nil || n != 1 {
			t.Errorf("PruneOutput = %d, %v; want the output of one run forgotten", n, err)
		}
		if a, _ := s.Output(context.Background(), "run-a", 0); len(a) != 0 {
			t.Errorf("run-a's output survived its pruning: %+v", a)
		}
		if ab, _ := s.Output(context.Background(), "run-ab", 0); len(ab) != 1 {
			t.Errorf("run-ab's output = %+v, want its one line kept", ab)
		}
	})
}
