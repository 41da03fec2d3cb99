package mattermost

// Connected is nil while the websocket is up and the server has greeted the bot (hello, sent
// once the token is accepted). Otherwise it says why not: "connecting" until the first
// connection, "reconnecting: websocket closed: …" while Run waits to reconnect.
func (a *Adapter) Connected() error { return a.link.Err() }
