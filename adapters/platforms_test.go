package adapters_test

import (
	"slices"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/slack"
)

// TestPlatformsNameEveryAdapter protects the policy's platform prefixes: the engine takes the
// list from adapters.Platforms, so an adapter missing from it could never be named in a
// policy entry, and a name that is no adapter's would admit nobody.
func TestPlatformsNameEveryAdapter(t *testing.T) {
	var names []string
	for _, a := range []adapters.Adapter{console.New(console.Config{}), new(mattermost.Adapter), new(slack.Adapter), new(discord.Adapter)} {
		names = append(names, a.Name())
	}
	got := adapters.Platforms()
	slices.Sort(got)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("adapters.Platforms() = %v, the adapters are named %v", got, names)
	}
}

func TestPlatformsIsACopy(t *testing.T) {
	p := adapters.Platforms()
	p[0] = "changed"
	if adapters.Platforms()[0] == "changed" {
		t.Error("changing the slice Platforms returned changed the list every caller sees")
	}
}
