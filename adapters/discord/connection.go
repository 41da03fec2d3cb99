package discord

// Connected is nil while the gateway session is up (Discord answered the identify with READY
// or the resume with RESUMED). Otherwise it says why not: "connecting" until the first
// session, "reconnecting: …" from a Disconnect until the session is resumed or replaced.
func (a *Adapter) Connected() error { return a.link.Err() }
