package intents

import (
	"strings"
	"unicode/utf8"
)

// setNodes sets the nodes from `on NODES` or `--nodes NODES`; at is the keyword or flag.
func (st *state) setNodes(at, w item) *Error {
	if st.in.Nodes != nil {
		return st.errAt(at.pos, "the nodes are given twice", "")
	}
	nodes := splitItems(w.val, st.buf.nodes[:0])
	if nodes == nil {
		return st.errAt(w.pos, quote(w.val)+" is not a list of nodes: separate names with commas and no spaces, like node1,node2", "")
	}
	for _, n := range nodes {
		if !validName(n, 253, true) {
			return st.errAt(w.pos, quote(n)+" is not a node name: use letters, digits, ., - and _", "")
		}
	}
	st.in.Nodes = nodes
	return nil
}

// splitItems splits s at commas into buf (or a new slice when buf is too small). It returns
// nil when an item is empty or has surrounding whitespace.
func splitItems(s string, buf []string) []string {
	n := strings.Count(s, ",") + 1
	items := buf[:0]
	if cap(buf) < n {
		items = make([]string, 0, n)
	}
	for range n {
		var item string
		item, s, _ = strings.Cut(s, ",")
		if item == "" {
			return nil
		}
		first, _ := utf8.DecodeRuneInString(item)
		last, _ := utf8.DecodeLastRuneInString(item)
		if isSpace(first) || isSpace(last) {
			return nil
		}
		items = append(items, item)
	}
	return items
}
