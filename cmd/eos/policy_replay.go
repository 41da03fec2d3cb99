package main

// eos policy replay DIR [--since 30d]: judges the input documents of past plans, kept in the
// store for the replay window, with the candidate policy set in DIR, and prints plan by plan
// what it would deny, hold (require) or warn that the policy in force then did not, and what
// that policy decided that the candidate no longer would. It streams: documents are read an
// hour at a time from the store (or line by line from the Eos holding the bbolt file, on its
// socket: GET /v1/policy-inputs) and judged one by one, never all held at once.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

func policyReplayCmd(loadCfg func() (*Config, error)) *cobra.Command {
	since := "30d"
	cmd := &cobra.Command{
		Use:   "replay DIR [--since 30d]",
		Short: "Judge past plans with the policy set in DIR and print what it would decide that the policy in force did not",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ago, err := parseAgo(since)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			set, err := rego.Load(ctx, []string{args[0]}, 0)
			if err != nil {
				return err
			}
			if set == nil {
				return fmt.Errorf("no .rego policies under %s (tests, *_test.rego, are not policies)", args[0])
			}
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			r, err := openReader(ctx, cfg)
			if err != nil {
				return err
			}
			defer r.Close()
			from := time.Now().Add(-ago)
			_, err = replayPolicy(ctx, cmd.OutOrStdout(), set, from, func(fn func(*store.PolicyInput) error) error {
				return r.policyInputs(ctx, from, fn)
			})
			return err
		},
	}
	cmd.Flags().StringVar(&since, "since", since, "how far back: days (30d) or a duration (12h)")
	return cmd
}

// parseAgo reads --since: "30d" or a Go duration ("12h", "90m").
func parseAgo(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(d); err == nil && n > 0 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("--since %q: give days (30d) or a duration (12h)", s)
}

// replaySummary counts what a replay found.
type replaySummary struct {
	Plans, Changed               int
	Denied, Held, Warned, Looser int
}

// replayPolicy judges each document each yields with set and prints the plans on which set
// decides otherwise than the policy in force did, then a summary.
func replayPolicy(ctx context.Context, out io.Writer, set *rego.Set, from time.Time,
	each func(func(*store.PolicyInput) error) error) (replaySummary, error) {
	var sum replaySummary
	w := bufio.NewWriter(out)
	defer w.Flush()
	err := each(func(in *store.PolicyInput) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		sum.Plans++
		var doc any
		if err := json.Unmarshal(in.Input, &doc); err != nil {
			return fmt.Errorf("plan %s's input document: %w", in.PlanID, err)
		}
		bot.UpgradeKeptPolicyInput(doc) // a document kept before Terraform changes carried their values
		added, dropped := compareDecisions(in.Decisions, set.Judge(ctx, doc))
		if len(added) == 0 && len(dropped) == 0 {
			return nil
		}
		sum.Changed++
		fmt.Fprintf(w, "Plan %s · %s · %s (%s)\n", in.PlanID, planLine(in), in.At.UTC().Format("2006-01-02 15:04 UTC"), inForce(in))
		for _, d := range added {
			switch d.Kind {
			case rego.Deny:
				sum.Denied++
				fmt.Fprintf(w, "  ⛔ would deny: %s\n", d)
			case rego.Require:
				sum.Held++
				fmt.Fprintf(w, "  ✋ would hold for %s (%d): %s\n", strings.Join(d.Approvers, ", "), d.Approvals, d)
			default:
				sum.Warned++
				fmt.Fprintf(w, "  ⚠️ would warn: %s\n", d)
			}
		}
		for _, d := range dropped {
			sum.Looser++
			fmt.Fprintf(w, "  ✅ would no longer %s: %s (%s)\n", d.Kind, d.Msg, d.Rule)
		}
		return w.Flush()
	})
	if err != nil {
		return sum, err
	}
	if sum.Plans == 0 {
		fmt.Fprintf(w, "No plans were kept since %s: nothing to replay (input documents are kept 30 days).\n", from.UTC().Format("2006-01-02 15:04 UTC"))
		return sum, nil
	}
	fmt.Fprintf(w, "Replayed %d %s kept since %s with policy set %.12s: %d judged otherwise (%d %s, %d %s, %d %s the policy in force did not make; %d %s it made dropped), %d the same.\n",
		sum.Plans, plural(sum.Plans, "plan", "plans"), from.UTC().Format("2006-01-02 15:04 UTC"), set.SHA256(), sum.Changed,
		sum.Denied, plural(sum.Denied, "deny", "denies"), sum.Held, plural(sum.Held, "hold", "holds"), sum.Warned, plural(sum.Warned, "warning", "warnings"),
		sum.Looser, plural(sum.Looser, "decision", "decisions"), sum.Plans-sum.Changed)
	return sum, nil
}

// compareDecisions returns the candidate's decisions the policy in force did not make (the
// same kind and message), and the decisions in force the candidate no longer makes.
func compareDecisions(was []store.PolicyDecision, now []rego.Decision) (added []rego.Decision, dropped []store.PolicyDecision) {
	key := func(kind, msg string) string { return kind + "\x00" + msg }
	had := map[string]bool{}
	for _, d := range was {
		had[key(d.Kind, d.Msg)] = true
	}
	has := map[string]bool{}
	for _, d := range now {
		has[key(d.Kind, d.Msg)] = true
		if !had[key(d.Kind, d.Msg)] {
			added = append(added, d)
		}
	}
	for _, d := range was {
		if !has[key(d.Kind, d.Msg)] {
			dropped = append(dropped, d)
		}
	}
	return added, dropped
}

// planLine says what a kept plan asked: "create nextcloud in production".
func planLine(in *store.PolicyInput) string {
	var doc struct {
		Request struct{ Verb, Target, Environment string }
	}
	if json.Unmarshal(in.Input, &doc) != nil || doc.Request.Verb == "" {
		return in.Service + " in " + in.Env
	}
	return doc.Request.Verb + " " + doc.Request.Target + " in " + doc.Request.Environment
}

func inForce(in *store.PolicyInput) string {
	if in.PolicySHA == "" {
		return "no policy was in force"
	}
	return fmt.Sprintf("policy in force %.12s", in.PolicySHA)
}

// policyInputs streams the kept input documents from since on: from the store opened here,
// or line by line from the Eos holding it.
func (r *storeReader) policyInputs(ctx context.Context, since time.Time, fn func(*store.PolicyInput) error) error {
	if r.st != nil {
		return r.st.EachPolicyInput(ctx, since, fn)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		"http://eos/v1/policy-inputs?"+url.Values{"since": {since.UTC().Format(time.RFC3339Nano)}}.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := r.via.http.Do(req)
	if err != nil {
		return fmt.Errorf("asking the Eos on %s for past plans: %w", r.via.socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("the Eos answering on %s: %s: %s", r.via.socket, resp.Status, strings.TrimSpace(string(msg)))
	}
	dec := json.NewDecoder(resp.Body)
	for {
		var line policyInputLine
		if err := dec.Decode(&line); err == io.EOF {
			return fmt.Errorf("the Eos on %s stopped sending past plans before their end", r.via.socket)
		} else if err != nil {
			return fmt.Errorf("reading past plans from the Eos on %s: %w", r.via.socket, err)
		}
		switch {
		case line.Error != "":
			return fmt.Errorf("the Eos on %s: %s", r.via.socket, line.Error)
		case line.End:
			return nil
		case line.Input != nil:
			if err := fn(line.Input); err != nil {
				return err
			}
		}
	}
}

// policyInputLine is one line of GET /v1/policy-inputs: a document, an error, or the end (so
// that a stream cut short is not taken for a complete one).
type policyInputLine struct {
	Input *store.PolicyInput `json:"input,omitempty"`
	Error string             `json:"error,omitempty"`
	End   bool               `json:"end,omitempty"`
}

// servePolicyInputs answers GET /v1/policy-inputs?since=RFC3339: the kept input documents as
// JSON lines, written as they are read.
func servePolicyInputs(st *store.Store) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		since, err := time.Parse(time.RFC3339Nano, r.URL.Query().Get("since"))
		if err != nil {
			http.Error(w, "since is a time (RFC 3339): "+err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/jsonl")
		enc := json.NewEncoder(w)
		flusher, _ := w.(http.Flusher)
		n := 0
		err = st.EachPolicyInput(r.Context(), since, func(in *store.PolicyInput) error {
			if err := enc.Encode(policyInputLine{Input: in}); err != nil {
				return err
			}
			if n++; n%100 == 0 && flusher != nil {
				flusher.Flush()
			}
			return r.Context().Err()
		})
		if err != nil {
			enc.Encode(policyInputLine{Error: err.Error()})
			return
		}
		enc.Encode(policyInputLine{End: true})
	}
}
