package slackfake

// Slack's limits on a message, which the fake enforces, and the text a person reads in one.

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Slack's documented limits: 50 blocks per message, 3,000 characters in a section's text,
// 150 in a header's, 40,000 in a message's text.
const (
	MaxBlocks      = 50
	MaxSectionText = 3000
	MaxHeaderText  = 150
	MaxText        = 40000
)

// WithinLimits reports why c is beyond Slack's limits, or nil; the fake refuses such a message
// as Slack does (invalid_blocks).
func (c Call) WithinLimits() error {
	if len(c.Blocks) > MaxBlocks {
		return fmt.Errorf("%d blocks, more than %d", len(c.Blocks), MaxBlocks)
	}
	if n := utf8.RuneCountInString(c.Text); n > MaxText {
		return fmt.Errorf("text of %d characters, more than %d", n, MaxText)
	}
	for _, b := range c.Blocks {
		var blk struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if err := json.Unmarshal(b, &blk); err != nil {
			return err
		}
		limit := map[string]int{"section": MaxSectionText, "header": MaxHeaderText}[blk.Type]
		if n := utf8.RuneCountInString(blk.Text.Text); limit > 0 && n > limit {
			return fmt.Errorf("%s text of %d characters, more than %d", blk.Type, n, limit)
		}
	}
	return nil
}

// Content is what a person reads in the message: the text of every block (header, sections,
// context elements, fields), one per line, or the message's text when it has no blocks.
func (c Call) Content() string {
	if len(c.Blocks) == 0 {
		return c.Text
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				out = append(out, t)
			}
			for k, y := range x {
				if k != "text" || !isString(y) {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	for _, b := range c.Blocks {
		var v any
		if json.Unmarshal(b, &v) == nil {
			walk(v)
		}
	}
	return strings.Join(out, "\n")
}

func isString(v any) bool { _, ok := v.(string); return ok }
