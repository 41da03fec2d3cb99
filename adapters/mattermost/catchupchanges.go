package mattermost

import (
	"github.com/mattermost/mattermost/server/public/model"
)

// The catch-up after a reconnection or a restart also delivers the edits and deletions made
// while no websocket was up, so that a plan is never approved for a request that changed
// meanwhile.
//
// The posts API's since (GET /api/v4/channels/{id}/posts?since=MILLIS) lists every post whose
// UpdateAt is later, deleted ones included: no include_deleted (which asks for a permission
// the bot lacks, and which the server reads only for page, before and after, not for since)
// is needed. Mattermost v6.7 returns a deleted post whole; later servers empty its message,
// which a deletion does not need. An edit keeps the post's id, sets EditAt and UpdateAt, and
// stores the former text as a new post, deleted at the edit's time, whose OriginalId names the
// edited post: that archive is not a deletion. Reactions and replies move UpdateAt too, but not
// EditAt: only EditAt says the text changed.

// missedChange is a person's post edited or deleted while the websocket was down.
type missedChange struct {
	post    *model.Post
	deleted bool
	at      int64 // the edit's or the deletion's time (ms, the server's clock)
}

// missedChangeOf reports the change that post p, as a catch-up since since lists it, shows:
// a deletion at or after since, or else an edit at or after since. A post created after since
// and edited is delivered as a message with its current text, and also as an edit, which the
// handler finds unchanged; the edit matters when the post was delivered before as it read
// then (within the catch-up's margin). Whose post it is and where is for deliverChange to judge.
func missedChangeOf(p *model.Post, since int64) (missedChange, bool) {
	switch {
	case p.DeleteAt != 0:
		if p.OriginalId != "" || p.DeleteAt < since {
			return missedChange{}, false // an edit's archived former text, or deleted before
		}
		return missedChange{post: p, deleted: true, at: p.DeleteAt}, true
	case p.EditAt != 0 && p.EditAt >= since:
		return missedChange{post: p, at: p.EditAt}, true
	}
	return missedChange{}, false
}
