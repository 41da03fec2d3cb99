package slack

// Connected is nil while a Socket Mode connection is up and Slack has said hello on it.
// Otherwise it says why not: "connecting" until the first connection, "reconnecting: …" after
// the socket dropped or Slack asked the app to reconnect, until the next hello.
func (a *Adapter) Connected() error { return a.link.Err() }
