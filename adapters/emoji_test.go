package adapters

import "testing"

// A skin tone is no part of an emoji's meaning, however a platform spells it: a person whose
// picker has one set approves with 👍 all the same.
func TestCanonicalEmojiWithoutSkinTone(t *testing.T) {
	for in, want := range map[string]string{
		"👍": "+1", "👍🏽": "+1", "👍🏿": "+1", "👎🏻": "-1", "✅": "white_check_mark",
		"+1": "+1", ":+1:": "+1", "thumbsup": "+1",
		"+1_medium_skin_tone": "+1", "+1_medium_light_skin_tone": "+1", "+1_medium_dark_skin_tone": "+1",
		"+1_light_skin_tone": "+1", "+1_dark_skin_tone": "+1", "thumbsup_dark_skin_tone": "+1",
		"-1_light_skin_tone": "-1", "thumbsdown_medium_skin_tone": "-1", ":+1_light_skin_tone:": "+1",
		"+1::skin-tone-4": "+1", ":+1::skin-tone-2:": "+1",
		"eyes": "eyes", "_light_skin_tone": "_light_skin_tone",
		// ✅ and ❌ have no skin tones: such a name is a custom emoji showing any picture.
		"white_check_mark_light_skin_tone": "white_check_mark_light_skin_tone", "✅🏽": "✅🏽",
		"heavy_check_mark::skin-tone-3": "heavy_check_mark::skin-tone-3", "x_dark_skin_tone": "x_dark_skin_tone",
	} {
		if got := CanonicalEmoji(in); got != want {
			t.Errorf("CanonicalEmoji(%q) = %q, want %q", in, got, want)
		}
		if VoteOf(CanonicalEmoji(in)) != VoteOf(want) {
			t.Errorf("%q votes %v, want %v", in, VoteOf(CanonicalEmoji(in)), VoteOf(want))
		}
	}
}
