package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

func benchStore(b *testing.B, plans int) *Store {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "eos.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	for i := 0; i < plans; i++ {
		p := samplePlan(fmt.Sprintf("%08x", i))
		p.Preview = adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprint(i)}
		if err := s.CreatePlan(p); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkApprovalCheckAndSet is one approval: read, check and write a plan in one bbolt
// transaction (fsync included).
func BenchmarkApprovalCheckAndSet(b *testing.B) {
	s := benchStore(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := s.UpdatePlan(fmt.Sprintf("%08x", i%1000), func(p *Plan) error {
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
}

// BenchmarkPlanByPost is the lookup every reaction starts with.
func BenchmarkPlanByPost(b *testing.B) {
	s := benchStore(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.PlanByPost(adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprint(i % 1000)}); err != nil {
			b.Fatal(err)
		}
	}
}
