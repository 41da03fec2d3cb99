package console

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/eosbot/eos/adapters"
)

// A post's id, as the bot sees it, is its number and the adapter's session: "4@1f2e3d4c".

// newSession is a random session name.
func newSession() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// postID is the id of post number n.
func (a *Adapter) postID(n int) string { return strconv.Itoa(n) + "@" + a.session }

// number is the post number id stands for. An id of an earlier session, or of a post that
// does not exist, is adapters.ErrNoSuchPost; a.mu must be held.
func (a *Adapter) number(id string) (int, error) {
	num, session, _ := strings.Cut(id, "@")
	if session != a.session {
		return 0, fmt.Errorf("console post %q is from an earlier session (posts do not outlive it): %w", id, adapters.ErrNoSuchPost)
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > len(a.posts) {
		return 0, fmt.Errorf("console has no post %q: %w", id, adapters.ErrNoSuchPost)
	}
	return n, nil
}
