package executor

// A change's data: what a layer knows about one change as values, beside the lines the
// preview shows, for a rule of the policy set to read (the bot's input document) instead of
// parsing text. Terraform's before and after are read from its attribute lines (they are
// JSON); Salt and Nomad say theirs here. Pointers, so that Change stays comparable; nil for
// a change a layer has no data for (a failure, an adopted job). Never a secret value: Salt's
// changes are masked as its file diffs are.

// SaltState is a Salt state that would change, as data.
type SaltState struct {
	Minion string `json:"minion"`
	ID     string `json:"id"`
	// Function is the state's module and function: "file.managed", "service.running".
	Function string `json:"function"`
	Name     string `json:"name"`
	// Changes are Salt's test-mode changes of the state ({"diff": "…"}, {"newfile": "/x"},
	// {"nginx": {"new": "1.2", "old": ""}}), every text masked as a file's diff is: shown when
	// it is made of what the blueprint itself says, "<secret masked>" otherwise. A diff is the
	// change's masked diff. Empty when Salt reports none (most states in test mode).
	Changes map[string]any `json:"changes"`
	// Restart is what the state would do to a running service: "restart", "reload", "stop"
	// (a command or module.run that restarts one says which word it uses), "" for nothing.
	Restart string `json:"restart"`
	// Service is the service restarted, reloaded or stopped ("" for a command).
	Service string `json:"service"`
	// Triggers are the states whose change fires it: "watch: file /etc/nginx/nginx.conf".
	Triggers []string `json:"triggers"`
	// Mount is what happens to a mount: "change" (remounted), "unmount", "".
	Mount string `json:"mount"`
	// Format says a volume that exists would be formatted (its filesystem replaced).
	Format bool `json:"format"`
	// Remove says a volume or a file under a data path would be removed.
	Remove bool `json:"remove"`
	// DataPath is the path the blueprint says holds data that the state touches, "" for none.
	DataPath string `json:"data_path"`
}

// NomadGroup is a Nomad task group a plan changes, as data: its count and each task's
// settings before and after. Group is "" for a change to the job's own settings.
type NomadGroup struct {
	Job   string      `json:"job"`
	Group string      `json:"group"`
	Count IntChange   `json:"count"`
	Tasks []NomadTask `json:"tasks"`
	// Fields are the group's own changed settings, deep ("Update.MaxParallel"), its tasks'
	// not among them.
	Fields []FieldChange `json:"fields"`
}

// NomadTask is one task of a group: every task of the group, changed or not, so that a rule
// sees what runs after the change. Action is create, update, delete or no-op.
type NomadTask struct {
	Name        string       `json:"name"`
	Action      Action       `json:"action"`
	Driver      StringChange `json:"driver"`
	Image       StringChange `json:"image"`
	CPU         IntChange    `json:"cpu"`
	MemoryMB    IntChange    `json:"memory_mb"`
	MemoryMaxMB IntChange    `json:"memory_max_mb"`
	// Fields are the task's changed settings, deep ("Config.image", "Resources.MemoryMB"); a
	// new task's are its settings that are not Nomad's zero defaults.
	Fields []FieldChange `json:"fields"`
}

// FieldChange is one setting's value before and after, as Nomad's diff gives it (text); nil
// on the side where it does not exist.
type FieldChange struct {
	Name   string  `json:"name"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// StringChange is a text before and after; nil where there is none (a new task's before).
type StringChange struct {
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// IntChange is a number before and after; nil where there is none.
type IntChange struct {
	Before *int `json:"before"`
	After  *int `json:"after"`
}
