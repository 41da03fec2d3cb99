package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// A run's output: the lines its layers printed while applying (Terraform's messages, each Salt
// state's result, Nomad's deployment statuses), kept so that the status page can show them on
// any replica while the run applies and after it ended. At most MaxOutputLines a run; the
// engine says how many more there were.

// bucketOutput holds run id + "/" + line number → OutputLine.
var bucketOutput = []byte("run_output")

func init() { allBuckets = append(allBuckets, bucketOutput) }

// MaxOutputLines is how many lines of one run are kept.
const MaxOutputLines = 2000

// OutputLine is one line a layer printed.
type OutputLine struct {
	At    time.Time `json:"at"`
	Layer string    `json:"layer,omitempty"`
	Text  string    `json:"text"`
}

func outputKey(id string, n int) string { return fmt.Sprintf("%s/%08d", id, n) }

// AppendOutput stores lines as run id's lines number from, from+1, …; lines past
// MaxOutputLines are not stored.
func (s *Store) AppendOutput(ctx context.Context, id string, from int, lines []OutputLine) error {
	return s.update(ctx, func(tx txn) error {
		for i, l := range lines {
			if from+i >= MaxOutputLines {
				break
			}
			if err := put(tx, bucketOutput, outputKey(id, from+i), l); err != nil {
				return err
			}
		}
		return nil
	})
}

// Output returns run id's stored lines from number from on.
func (s *Store) Output(ctx context.Context, id string, from int) ([]OutputLine, error) {
	var out []OutputLine
	err := s.view(ctx, func(tx txn) error {
		out = nil
		start := outputKey(id, from)
		var derr error
		err := tx.bucket(bucketOutput).Scan([]byte(id+"/"), func(k, raw []byte) bool {
			if string(k) < start {
				return true
			}
			var l OutputLine
			if derr = json.Unmarshal(raw, &l); derr != nil {
				derr = fmt.Errorf("decoding %s %q: %w", bucketOutput, k, derr)
				return false
			}
			out = append(out, l)
			return true
		})
		if derr != nil {
			return derr
		}
		return err
	})
	return out, err
}

// PruneOutput forgets the output of runs that started before keepFrom; it returns how many
// runs' output it removed.
func (s *Store) PruneOutput(ctx context.Context, keepFrom time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx txn) error {
		n = 0
		var old []string
		if err := each(tx, bucketRuns, func(id string, r *Run) bool {
			if r.Started.Before(keepFrom) && r.State != RunRunning {
				old = append(old, id)
			}
			return true
		}); err != nil {
			return err
		}
		b := tx.bucket(bucketOutput)
		for _, id := range old {
			var keys [][]byte
			if err := b.Scan([]byte(id+"/"), func(k, _ []byte) bool {
				keys = append(keys, []byte(strings.Clone(string(k))))
				return true
			}); err != nil {
				return err
			}
			for _, k := range keys {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			if len(keys) > 0 {
				n++
			}
		}
		return nil
	})
	return n, err
}
