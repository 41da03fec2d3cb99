package discord

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// gone marks err as adapters.ErrNoSuchPost when it is Discord saying the message does not
// exist (deleted, or never posted), and returns any other error unchanged: an unknown channel,
// a refusal or an outage says nothing about the message.
func gone(err error) error {
	if codeOf(err) == discordgo.ErrCodeUnknownMessage || unknownReference(err) {
		return fmt.Errorf("%w: %w", adapters.ErrNoSuchPost, err)
	}
	return err
}

// unknownReference reports whether err is Discord refusing a reply because the message it
// references does not exist: 400 Invalid Form Body whose message_reference has the error
// REPLIES_UNKNOWN_MESSAGE.
func unknownReference(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || codeOf(err) != discordgo.ErrCodeInvalidFormBody {
		return false
	}
	var body struct {
		Errors struct {
			MessageReference any `json:"message_reference"`
		} `json:"errors"`
	}
	if json.Unmarshal(re.ResponseBody, &body) != nil {
		return false
	}
	return hasCode(body.Errors.MessageReference, "REPLIES_UNKNOWN_MESSAGE")
}

// hasCode reports whether the error tree v of an Invalid Form Body answer (objects keyed by
// field, with "_errors" lists of {code, message} at the leaves) holds code anywhere.
func hasCode(v any, code string) bool {
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x["code"].(string); ok && c == code {
			return true
		}
		for _, y := range x {
			if hasCode(y, code) {
				return true
			}
		}
	case []any:
		for _, y := range x {
			if hasCode(y, code) {
				return true
			}
		}
	}
	return false
}
