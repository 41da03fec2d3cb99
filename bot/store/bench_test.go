package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store/pgtest"
)

// The store's benchmarks run on both backends: BenchmarkX/bbolt and BenchmarkX/postgres (the
// test environment's PostgreSQL, on loopback).

func benchStores(b *testing.B, plans int, fn func(b *testing.B, s *Store)) {
	open := map[string]func(b *testing.B) *Store{
		"bbolt": func(b *testing.B) *Store {
			s, err := Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"postgres": func(b *testing.B) *Store {
			s, err := OpenPostgres(context.Background(), pgtest.Database(b), PostgresOptions{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
	}
	for _, name := range []string{"bbolt", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := open[name](b)
			b.Cleanup(func() { s.Close() })
			for i := 0; i < plans; i++ {
				p := samplePlan(fmt.Sprintf("%08x", i))
				p.Preview = adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprint(i)}
				if err := s.CreatePlan(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
			// A leader's store: every write also checks the epoch, as in production.
			if _, err := s.Lead(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			fn(b, s)
		})
	}
}

// BenchmarkApprovalCheckAndSet is one approval: read, check and write a plan in one
// transaction (bbolt: with its fsync; PostgreSQL: serializable, with the fencing check).
func BenchmarkApprovalCheckAndSet(b *testing.B) {
	benchStores(b, 1000, func(b *testing.B, s *Store) {
		for i := 0; i < b.N; i++ {
			_, err := s.UpdatePlan(context.Background(), fmt.Sprintf("%08x", i%1000), func(p *Plan) error {
				if p.State != PlanPending {
					return errors.New("not pending")
				}
				p.Approvals = append(p.Approvals[:0], Vote{User: "bob"})
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPlanByPost is the lookup every reaction starts with.
func BenchmarkPlanByPost(b *testing.B) {
	benchStores(b, 1000, func(b *testing.B, s *Store) {
		for i := 0; i < b.N; i++ {
			if _, err := s.PlanByPost(context.Background(), adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprint(i % 1000)}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
