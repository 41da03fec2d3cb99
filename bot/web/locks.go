package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/eosbot/eos/bot/store"
)

// lockRow is a held lock with who asked for the run that holds it.
type lockRow struct {
	store.Lock
	Asker string
}

// visibleLocks lists the locks held by runs the person may see, by key.
func (s *server) visibleLocks(v *viewer) ([]lockRow, error) {
	locks, err := s.st.Locks(v.ctx)
	if err != nil {
		return nil, err
	}
	var out []lockRow
	for _, l := range locks {
		if !v.planID(l.Holder) {
			continue
		}
		row := lockRow{Lock: l}
		if p, err := s.st.Plan(v.ctx, l.Holder); err == nil {
			row.Asker = p.Requester.Name
		}
		out = append(out, row)
	}
	slices.SortFunc(out, func(a, b lockRow) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

func (s *server) locks(w http.ResponseWriter, r *http.Request, v *viewer) {
	rows, err := s.visibleLocks(v)
	if err != nil {
		s.fail(w, r, "listing locks", err)
		return
	}
	s.render(w, r, http.StatusOK, "locks", v, rows)
}
