package bot

import (
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// anotherApprovalShown keeps the approving emoji of approval v (Vote.Emoji) as approving
// reaction r of the same person adds or removes one, and reports whether the approval stands
// on another of them, so that r changes nothing more: r adds one (✅ beside a 👍 that already
// approved), or removes one while another is left on the preview. A person who approved with
// ✅ and 👍 and takes 👍 back still shows ✅ to everyone reading the preview, as a restart's
// catch-up (recover.go) also finds; the approval goes with the last of them. An approval
// recorded before Eos kept its emoji goes with the first removal, as it did then.
func anotherApprovalShown(v *store.Vote, r adapters.Reaction) bool {
	if !r.Removed {
		if len(v.Emoji) > 0 && !slices.Contains(v.Emoji, r.Emoji) {
			v.Emoji = append(v.Emoji, r.Emoji)
		}
		return true
	}
	if len(v.Emoji) == 0 {
		return false
	}
	v.Emoji = slices.DeleteFunc(v.Emoji, func(e string) bool { return e == r.Emoji })
	return len(v.Emoji) > 0
}
