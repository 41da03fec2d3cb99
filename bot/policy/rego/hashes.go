package rego

import (
	"runtime"
	"sync"
)

// changeHashes are the hashes of each layer's changes (nativeHash), by layer name, in the
// order of the layer's `changes`; a change that is not an object has none (0).
type changeHashes map[string][]int

// hashFrom is the number of changes from which a document's changes are hashed on several
// goroutines: hashing a change costs about a microsecond, so a plan of 720 changes (the
// example library's big plan) spends about a millisecond hashing them on one core, while a
// goroutine costs about a microsecond to start.
const hashFrom = 128

// hashChanges hashes every change of document doc's layers, on up to GOMAXPROCS goroutines
// when there are hashFrom changes or more.
func hashChanges(doc map[string]any) changeHashes {
	layers, ok := layersOf(doc)
	if !ok {
		return nil
	}
	type span struct {
		list []any
		out  []int
	}
	var spans []span
	out := changeHashes{}
	total := 0
	for name, l := range layers {
		layer, _ := l.(map[string]any)
		list, ok := layer["changes"].([]any)
		if !ok {
			continue
		}
		out[name] = make([]int, len(list))
		spans = append(spans, span{list, out[name]})
		total += len(list)
	}
	hash := func(s span) {
		for i, x := range s.list {
			if ch, ok := x.(map[string]any); ok {
				s.out[i] = nativeHash(ch)
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), total/(hashFrom/2))
	if total < hashFrom || workers < 2 {
		for _, s := range spans {
			hash(s)
		}
		return out
	}
	// Cut each layer's changes into pieces of at most a worker's share, one goroutine a piece.
	per := (total + workers - 1) / workers
	var pieces []span
	for _, s := range spans {
		for from := 0; from < len(s.list); from += per {
			to := min(from+per, len(s.list))
			pieces = append(pieces, span{s.list[from:to], s.out[from:to]})
		}
	}
	var wg sync.WaitGroup
	for _, p := range pieces[1:] {
		wg.Go(func() { hash(p) })
	}
	hash(pieces[0])
	wg.Wait()
	return out
}
