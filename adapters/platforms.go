package adapters

// platforms are the names of the chat platforms Eos has an adapter for, each as its
// Adapter.Name returns it. A new platform's adapter adds its name here; the engine reads the
// list from Platforms and never names a platform itself.
var platforms = []string{"console", "mattermost", "slack", "discord"}

// Platforms are the names of the chat platforms Eos has an adapter for, as their adapters'
// Name returns them: the prefixes a policy entry may carry ("slack:bob") to name someone on
// one platform only.
func Platforms() []string { return append([]string(nil), platforms...) }
