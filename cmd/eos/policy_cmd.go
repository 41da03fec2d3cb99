package main

// eos policy test and eos policy replay: the policy author's tools. test runs the Rego unit
// tests of a policy folder with OPA's tester, as `opa test -v` does; replay judges the input
// documents of past plans kept in the store with a candidate set (policy_replay.go).

import (
	"context"
	"fmt"
	"io"

	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/spf13/cobra"
)

func policyCmd(loadCfg func() (*Config, error)) *cobra.Command {
	cmd := &cobra.Command{Use: "policy", Short: "Test policies as code, replay a candidate set over past plans, list or forget the policy's handle pins"}
	cmd.AddCommand(policyTestCmd(), policyReplayCmd(loadCfg), policyHandlesCmd(loadCfg))
	return cmd
}

func policyTestCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "test [DIR]",
		Short: "Run the Rego unit tests (test_* rules, usually in *_test.rego) of a policy folder (default: the current one)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			ok, err := runPolicyTests(cmd.Context(), cmd.OutOrStdout(), dir)
			if err != nil {
				return err
			}
			if !ok {
				return exitError{}
			}
			return nil
		},
	}
}

// runPolicyTests runs the Rego tests under dir with OPA's tester and prints each test's
// outcome and a summary as `opa test -v` does. It reports whether every test passed; a folder
// without any test is an error (a library whose tests were not found is not a tested one).
func runPolicyTests(ctx context.Context, out io.Writer, dir string) (bool, error) {
	modules, st, err := tester.Load([]string{dir}, nil)
	if err != nil {
		return false, fmt.Errorf("loading the policies of %s: %w", dir, err)
	}
	ch, err := tester.NewRunner().SetParallel(1).SetStore(st).RaiseBuiltinErrors(true).EnableTracing(true).Run(ctx, modules)
	if err != nil {
		return false, fmt.Errorf("the policies of %s: %w", dir, err)
	}
	counted := make(chan *tester.Result)
	var n, failed int
	go func() {
		defer close(counted)
		for r := range ch {
			n++
			if !r.Pass() && !r.Skip {
				failed++
			}
			counted <- r
		}
	}()
	if err := (tester.PrettyReporter{Output: out, Verbose: true, FailureLine: true}).Report(counted); err != nil {
		return false, err
	}
	if n == 0 {
		return false, fmt.Errorf("no Rego tests under %s: a test is a rule whose name starts with test_, usually in a *_test.rego file", dir)
	}
	return failed == 0, nil
}
