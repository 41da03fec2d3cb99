package store

import (
	"reflect"
	"sync"
	"unique"

	"github.com/eosbot/eos/executor"
)

// Decoding a plan's body (its spec, with the module files, templates and states it carries,
// and the layers' plans: about 10 KB of JSON) is the most expensive thing the store does: more
// than every other part of a conversation's writes together. A body never changes after it is
// planned, but it is read again at every step of the conversation (the preview, each reaction,
// the approval, the run), so the store keeps the bodies it decoded last, each under the tag of
// the stored version it was decoded from (planbody.go), and a read whose record names the same
// tag takes a copy instead of decoding again.
//
// The cached value is exactly what decoding gave, never anything a caller held: a body
// written by this process is cached only once it is read back. Every reader gets its own deep
// copy (cloneBody), so a caller changing what it read changes nothing anyone else sees, as
// when each read decoded afresh.

// bodyCacheSize bounds the bodies kept: enough for a burst of conversations in flight at
// once (BenchmarkConcurrentConversations has 500), about 7 KB each once their texts are shared
// (intern).
const bodyCacheSize = 1024

type cachedBody struct {
	tag  string
	body *executor.Plan
	// texts are the handles of the body's shared texts (interner): unique keeps a text's one
	// copy only while a handle to it lives, so each cached body keeps its own.
	texts []unique.Handle[string]
}

type bodyCache struct {
	mu      sync.Mutex
	entries map[string]cachedBody // plan id → its body as last decoded
}

func newBodyCache() *bodyCache { return &bodyCache{entries: map[string]cachedBody{}} }

// get returns the cached body of plan id at version tag (never to be changed: clone it), or
// nil.
func (c *bodyCache) get(id, tag string) *executor.Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[id]; ok && e.tag == tag {
		return e.body
	}
	return nil
}

// add keeps body, just decoded from version tag of plan id's body, with the handles of its
// shared texts. When the cache is full an arbitrary entry makes room: a miss only costs a
// decode.
func (c *bodyCache) add(id, tag string, body *executor.Plan, texts []unique.Handle[string]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[id]; !ok && len(c.entries) >= bodyCacheSize {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[id] = cachedBody{tag: tag, body: body, texts: texts}
}

// cloneBody deep-copies a body: the copy shares nothing a caller could change (slices, maps,
// pointers, interface values holding them); strings are immutable and shared.
func cloneBody(p *executor.Plan) executor.Plan {
	var out executor.Plan
	cloneInto(reflect.ValueOf(&out).Elem(), reflect.ValueOf(p).Elem())
	return out
}

// cloneInto sets dst, settable and of src's type, to a deep copy of src.
func cloneInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		cloneInto(n.Elem(), src.Elem())
		dst.Set(n)
	case reflect.Struct:
		// Unexported fields (time.Time's) are copied as they are; decoded JSON sets none
		// that could be shared and changed.
		dst.Set(src)
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() && deep(src.Field(i).Kind()) {
				cloneInto(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if deep(src.Type().Elem().Kind()) {
			for i := 0; i < src.Len(); i++ {
				cloneInto(n.Index(i), src.Index(i))
			}
		} else {
			reflect.Copy(n, src)
		}
		dst.Set(n)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			cloneInto(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		t := src.Type()
		n := reflect.MakeMapWithSize(t, src.Len())
		k, v := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		var c reflect.Value // SetMapIndex copies: one of each serves every entry
		if deep(t.Elem().Kind()) {
			c = reflect.New(t.Elem()).Elem()
		}
		for it := src.MapRange(); it.Next(); {
			k.SetIterKey(it) // keys decoded from JSON are strings
			v.SetIterValue(it)
			if c.IsValid() {
				cloneInto(c, v)
				n.SetMapIndex(k, c)
			} else {
				n.SetMapIndex(k, v)
			}
		}
		dst.Set(n)
	case reflect.Interface:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		v := src.Elem()
		if !deep(v.Kind()) {
			dst.Set(src) // a string, a number, a bool: nothing to share
			return
		}
		c := reflect.New(v.Type()).Elem()
		cloneInto(c, v)
		dst.Set(c)
	default:
		dst.Set(src)
	}
}

// internFrom is the length from which the texts of cached bodies are shared.
const internFrom = 256

// interner makes long strings the one canonical copy of their text, and keeps the handles
// that keep those copies alive.
type interner struct{ handles []unique.Handle[string] }

// intern makes every long string in v (settable) the one canonical copy of its text: plans of
// one blueprint carry the same module files, templates and states, so the bodies the cache
// keeps share them instead of holding a copy each (a body of two units is about 25 KB decoded,
// nine tenths of it those texts). unique keeps a text's copy while a handle to it lives, not
// while a string shares its bytes, so the cache keeps each body's handles (in.handles) with it:
// unique forgets a text once no cached body holds it. Before, a garbage collection between two
// reads of bodies of one blueprint gave each its own copy.
func (in *interner) intern(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); len(s) >= internFrom {
			h := unique.Make(s)
			in.handles = append(in.handles, h)
			v.SetString(h.Value())
		}
	case reflect.Pointer:
		if !v.IsNil() {
			in.intern(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				in.intern(f)
			}
		}
	case reflect.Slice, reflect.Array:
		if k := v.Type().Elem().Kind(); k == reflect.String || deep(k) {
			for i := 0; i < v.Len(); i++ {
				in.intern(v.Index(i))
			}
		}
	case reflect.Map:
		et := v.Type().Elem()
		if et.Kind() != reflect.String && !deep(et.Kind()) {
			return
		}
		k, c := reflect.New(v.Type().Key()).Elem(), reflect.New(et).Elem()
		for it := v.MapRange(); it.Next(); {
			c.SetIterValue(it)
			if et.Kind() == reflect.String && len(c.String()) < internFrom {
				continue // nothing to share: leave the entry as it is
			}
			k.SetIterKey(it)
			in.intern(c)
			v.SetMapIndex(k, c) // an existing key: the map does not grow
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() == reflect.String && len(e.String()) < internFrom || e.Kind() != reflect.String && !deep(e.Kind()) {
			return // a number, a bool, a short string
		}
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		in.intern(c)
		v.Set(c)
	}
}

// deep reports whether values of kind k may hold memory a caller could change.
func deep(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Struct, reflect.Slice, reflect.Array, reflect.Map, reflect.Interface:
		return true
	}
	return false
}
