package render

// platformName is how a person reads the name of the chat platform an adapter names
// ("mattermost" → "Mattermost"); a name Eos does not know is shown as it is.
func platformName(name string) string {
	switch name {
	case "mattermost":
		return "Mattermost"
	case "slack":
		return "Slack"
	case "discord":
		return "Discord"
	case "console":
		return "the console"
	}
	return name
}
