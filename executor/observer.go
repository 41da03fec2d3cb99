package executor

// Observer hears how one Apply goes: it is the one way a run talks back to whoever started
// it. Event receives each step of progress (a layer starting, resources done, a rollback's
// steps with Rollback set); Output receives each line of a layer's own output as it applies
// (Terraform's messages, a Salt state's result, a Nomad deployment's status), never empty and
// never holding a sensitive value. Asking a run to stop is not the observer's business: that
// goes the other way, with StopWhen.
//
// Runner.Apply hands the same observer to each layer's Apply and Rollback (for a rollback
// with each Event's Rollback set): nothing a layer reports travels in its context.
type Observer interface {
	Event(Event)
	Output(layer LayerName, line string)
}

// Observe makes an Observer of two functions. Either may be nil: what it would have heard
// is dropped.
func Observe(event func(Event), output func(layer LayerName, line string)) Observer {
	return observerFuncs{event: event, output: output}
}

type observerFuncs struct {
	event  func(Event)
	output func(LayerName, string)
}

func (o observerFuncs) Event(e Event) {
	if o.event != nil {
		o.event(e)
	}
}

func (o observerFuncs) Output(layer LayerName, line string) {
	if o.output != nil {
		o.output(layer, line)
	}
}

// Heard returns obs, or an observer that hears nothing when obs is nil, so a layer handed an
// observer may use it without checking.
func Heard(obs Observer) Observer {
	if obs == nil {
		return observerFuncs{}
	}
	return obs
}

// nonEmpty passes on what its observer hears but empty output lines, which Observer promises
// never to deliver.
type nonEmpty struct{ Observer }

func (o nonEmpty) Output(layer LayerName, line string) {
	if line != "" {
		o.Observer.Output(layer, line)
	}
}

// undoing passes on what its observer hears, marking each event as a rollback's.
type undoing struct{ Observer }

func (o undoing) Event(ev Event) {
	ev.Rollback = true
	o.Observer.Event(ev)
}
