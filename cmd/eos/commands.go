package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

func serveCmd(loadCfg func() (*Config, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the bot on the configured chat platforms (the console when none is configured)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			logTo, closeLog, err := logWriter(cfg, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer closeLog()
			log, err := newLogger(logTo, cfg.LogLevel)
			if err != nil {
				return err
			}
			ln, err := listenOps(cfg.Listen)
			if err != nil {
				return err
			}
			if ln != nil {
				defer ln.Close()
				cfg.servedAt = ln.Addr().String()
			}
			a, err := build(cmd.Context(), cfg, log)
			if err != nil {
				return err
			}
			defer a.Close()
			defer serveTools(cmd.Context(), a, log)() // stops before the store closes
			var as []adapters.Adapter
			if cfg.Mattermost != nil {
				mcfg := mattermost.Config{URL: cfg.Mattermost.URL, Token: cfg.Mattermost.Token, Channels: cfg.Mattermost.Channels, Logger: log.With("adapter", "mattermost")}
				if a.leader != nil {
					// A replica that takes over reads on from where the last leader stopped; the
					// engine's message claims answer what both saw only once.
					mcfg.Cursors = a.store
				}
				mm, err := mattermost.New(mcfg)
				if err != nil {
					return err
				}
				as = append(as, mm)
			}
			if cfg.Slack != nil {
				sl, err := slack.New(slack.Config{AppToken: cfg.Slack.AppToken, BotToken: cfg.Slack.BotToken, AdminUserToken: cfg.Slack.AdminUserToken, Channels: cfg.Slack.Channels, Logger: log.With("adapter", "slack")})
				if err != nil {
					return err
				}
				as = append(as, sl)
			}
			if cfg.Discord != nil {
				dc, err := discord.New(discord.Config{Token: cfg.Discord.Token, Channels: cfg.Discord.Channels, Guild: cfg.Discord.Guild, Logger: log.With("adapter", "discord")})
				if err != nil {
					return err
				}
				as = append(as, dc)
			}
			if cfg.consoleEnabled() {
				as = append(as, newConsole(a, cfg.Console.User, "", cmd))
			}
			log.Info("eos serving", "version", version, "adapters", len(as), "store", a.store.Kind(), "data_dir", cfg.DataDir)
			a.engine.LogPolicy(log)
			reloadOnHangup(cmd.Context(), loadCfg, a.engine, log)
			defer serveOps(cmd.Context(), ln, a, log)()
			if w := a.engine.Web(); w.SignInURL != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "status page: %s/ — sign in with `@%s web`\n", w.SignInURL, cfg.BotName)
			}
			if a.leader != nil {
				return a.serveReplica(cmd.Context(), as...)
			}
			return a.run(cmd.Context(), as...)
		},
	}
}

func chatCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var user, script string
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Talk to Eos in the terminal (react with /react N EMOJI); lines can be piped in",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			if cfg.replicated() {
				return errors.New("eos chat works on a store of its own; this configuration shares a PostgreSQL store, where only the elected leader acts: use eos serve (with console { enabled = true })")
			}
			if cfg.LogLevel == "" {
				cfg.LogLevel = "warn"
			}
			log, err := newLogger(os.Stderr, cfg.LogLevel)
			if err != nil {
				return err
			}
			a, err := build(cmd.Context(), cfg, log)
			if err != nil {
				return err
			}
			defer a.Close()
			defer serveTools(cmd.Context(), a, log)() // stops before the store closes
			if user == "" {
				user = cfg.Console.User
			}
			return a.run(cmd.Context(), newConsole(a, user, script, cmd))
		},
	}
	cmd.Flags().StringVar(&user, "user", "", "who you are in the chat (default $USER)")
	cmd.Flags().StringVar(&script, "script", "", "read the conversation from this file instead of the terminal")
	return cmd
}

// newConsole makes the console adapter: interactive with a prompt on a terminal, echoing
// each line when fed from a script or a pipe.
func newConsole(a *app, user, script string, cmd *cobra.Command) *console.Adapter {
	in := cmd.InOrStdin()
	interactive := false
	if script != "" {
		f, err := os.Open(script)
		if err == nil {
			in = f // closed when the process ends
		} else {
			fmt.Fprintln(os.Stderr, "eos:", err)
			in = strings.NewReader("")
		}
	} else if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		interactive = true
		fmt.Fprintf(cmd.OutOrStdout(), "Eos %s · console chat as @%s · data in %s\nTry: @eos help · @eos create grafana · then /react N +1 to approve post N · /quit\n",
			version, user, a.cfg.DataDir)
	}
	// A script or pipe reacts to previews right after asking for them; a person at the
	// terminal sees the preview first and may react to one plan while another is planned.
	var settle func(context.Context) error
	if !interactive {
		settle = a.engine.Settle
	}
	return console.New(console.Config{
		In: in, Out: cmd.OutOrStdout(), User: user, BotName: a.cfg.BotName,
		Prompt: interactive, Echo: !interactive, Idle: a.engine.Wait, Settle: settle, Groups: a.cfg.consoleGroups(),
	})
}

func parseCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "parse [--json] TEXT",
		Short: "Parse a chat command and print the intent (exit 1 on a mistake)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			cat, err := loadCatalog(cfg)
			if err != nil {
				return err
			}
			in, perr := intents.NewParser(cat).Parse(strings.Join(args, " "))
			out := cmd.OutOrStdout()
			var pe *intents.Error
			switch {
			case perr != nil && !errors.As(perr, &pe):
				return perr
			case perr != nil && asJSON:
				json.NewEncoder(out).Encode(map[string]any{"error": pe})
				return exitError{}
			case perr != nil:
				fmt.Fprintln(out, pe.Error())
				fmt.Fprintln(out, pe.Caret())
				return exitError{}
			case asJSON:
				return json.NewEncoder(out).Encode(in)
			}
			raw, _ := json.MarshalIndent(in, "", "  ")
			fmt.Fprintln(out, string(raw))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: the intent, or {\"error\": {message, column, suggestion}}")
	return cmd
}

func planCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var user string
	cmd := &cobra.Command{
		Use:   "plan [--user NAME] TEXT",
		Short: "Show the preview of a request without chat, storing nothing",
		Long: `Shows the preview Eos would post for the request (eos plan create grafana --port 3002 in
staging), planned by every layer and stored nowhere. Flags after the request are the request's,
so eos plan's own (--user) come first. Beside a running eos serve or eos chat on a bbolt store,
that Eos plans it (on its socket in the data directory); the preview is the same.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			if user == "" {
				user = cfg.Console.User
			}
			ans, err := preview(cmd.Context(), cfg, strings.Join(args, " "), user)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), ans.Text)
			if ans.Failed {
				return exitError{}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&user, "user", "", "who asks (default $USER)")
	// Flags after the request are the request's (eos plan create grafana --port 3002), not eos plan's.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

func auditCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var asJSON bool
	var service string
	cmd := &cobra.Command{
		Use:   "audit [--json] [--service NAME]",
		Short: "Print the audit log: requests, previews, approvals, runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			r, err := openReader(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer r.Close()
			entries, err := r.audit(cmd.Context(), service)
			if err != nil {
				return err
			}
			return printAudit(cmd.OutOrStdout(), entries, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object per line")
	cmd.Flags().StringVar(&service, "service", "", "only entries about this service")
	return cmd
}

// printAudit prints the entries as eos audit does: one line each, or one JSON object each.
func printAudit(out io.Writer, entries []store.Entry, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(out)
		for _, e := range entries {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range entries {
		fmt.Fprintf(out, "%5d %s %-10s %-8s %-12s @%-10s %s\n", e.Seq, e.At.UTC().Format(time.RFC3339), e.Kind, e.PlanID, e.Env+"/"+e.Service, e.User, firstLine(e.Text))
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
