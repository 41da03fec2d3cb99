package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/bot/store"
)

// replicated reports whether the store is shared by replicas, which then elect a leader.
func (c *Config) replicated() bool { return c.Store.Type == "postgres" }

// openStore opens the configured store: the bbolt file in DATA_DIR, or PostgreSQL.
func openStore(ctx context.Context, cfg *Config) (*store.Store, error) {
	switch cfg.Store.Type {
	case "bbolt":
		if cfg.Store.DSN != "" {
			return nil, fmt.Errorf("store: type bbolt takes no dsn; set type = \"postgres\" to use the database")
		}
		return store.Open(filepath.Join(cfg.DataDir, "eos.db"), 2*time.Second)
	case "postgres":
		if cfg.Store.DSN == "" {
			return nil, fmt.Errorf("store: type postgres needs a dsn (store { dsn = \"postgres://…\" } or EOS_STORE_DSN)")
		}
		return store.OpenPostgres(ctx, cfg.Store.DSN, store.PostgresOptions{})
	default:
		return nil, fmt.Errorf("store: unknown type %q: bbolt or postgres", cfg.Store.Type)
	}
}

func storeCmd(loadCfg func() (*Config, error)) *cobra.Command {
	cmd := &cobra.Command{Use: "store", Short: "Look after Eos's store"}
	var from string
	migrate := &cobra.Command{
		Use:   "migrate --from bbolt PATH",
		Short: "Copy a bbolt store (plans, runs, locks, declared state, drift, audit) into the configured PostgreSQL store",
		Long: `Copy every record of a bbolt store into the PostgreSQL store the configuration names
(store { type = "postgres" dsn = "…" } or EOS_STORE_DSN), in one transaction. The PostgreSQL
store must be empty, and no Eos may be running on the bbolt file.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if from != "bbolt" {
				return fmt.Errorf("--from %q: only bbolt can be migrated from", from)
			}
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			if !cfg.replicated() {
				return fmt.Errorf("the configured store is %s: set store { type = \"postgres\" dsn = \"…\" } or EOS_STORE_DSN to name the destination", cfg.Store.Type)
			}
			src, err := store.Open(args[0], 2*time.Second)
			if err != nil {
				return err
			}
			defer src.Close()
			dst, err := openStore(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer dst.Close()
			copied, err := store.Copy(cmd.Context(), dst, src)
			if err != nil {
				return err
			}
			names := make([]string, 0, len(copied))
			for name := range copied {
				names = append(names, name)
			}
			slices.Sort(names)
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "copied %s into PostgreSQL (schema version %d):\n", args[0], store.SchemaVersion())
			for _, name := range names {
				fmt.Fprintf(out, "  %-13s %d\n", name, copied[name])
			}
			fmt.Fprintln(out, "Start eos serve with the PostgreSQL store; keep the bbolt file as a backup.")
			fmt.Fprintln(out, "Terraform state on disk is not moved: push each unit's state into the pg backend before the replicas plan (README: Running more than one Eos).")
			return nil
		},
	}
	migrate.Flags().StringVar(&from, "from", "bbolt", "the kind of store to copy from")
	cmd.AddCommand(migrate)
	return cmd
}
