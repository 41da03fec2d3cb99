// Command eos is the Eos ChatOps bot: `eos serve` runs it on the configured chat platforms,
// `eos chat` in the terminal, and `eos parse`, `eos plan`, `eos audit` and `eos version` help
// people and scripts look inside. This package only wires the others together.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// version is set at build time: -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := rootCmd().ExecuteContext(ctx); err != nil {
		if _, quiet := err.(exitError); !quiet {
			fmt.Fprintln(os.Stderr, "eos:", err)
		}
		os.Exit(1)
	}
}

// exitError ends the program with status 1 after the command already printed why.
type exitError struct{}

func (exitError) Error() string { return "exit 1" }

func rootCmd() *cobra.Command {
	var configPath string
	root := &cobra.Command{
		Use:           "eos",
		Short:         "Eos: ChatOps for SaltStack, Terraform, Nomad and Vault",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&configPath, "config", os.Getenv("EOS_CONFIG"), "configuration file (HCL); EOS_* variables override it")
	cfg := func() (*Config, error) { return loadConfig(configPath) }
	root.AddCommand(serveCmd(cfg), chatCmd(cfg), parseCmd(cfg), planCmd(cfg), auditCmd(cfg), exportCmd(cfg), catalogCmd(cfg), configCmd(cfg), storeCmd(cfg), policyCmd(cfg), versionCmd())
	return root
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "eos", version)
		},
	}
}
