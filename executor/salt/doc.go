// Package salt is the Salt layer of the executor: host configuration (storage, packages,
// system services) applied before Terraform and Nomad, through salt-api's REST interface
// (rest_cherrypy) with plain net/http.
//
// For each unit with a Salt part the layer writes the unit's state file into the master's
// file_roots with the wheel client (file_roots.write) under a content-addressed name,
// <StateDir>/<service>_<sha256 prefix>.sls, so what was planned is exactly what runs and no
// file sync is needed. It then runs state.apply of that state on the unit's targets with the
// compiled pillar passed as request data (kwarg "pillar"), never templated into the state text:
// with test=True to plan and to check drift, for real to apply, and with queue=True, so that a
// minion busy with another state run (a scheduled highstate, a concurrent plan) runs it next
// instead of refusing it with "The function "state.apply" is running as PID …". Jobs run asynchronously
// (client local_async); a run ends when every targeted minion has returned or the timeout
// passes. A minion's return is taken from its return event on salt-api's stream when the layer
// follows one, or else from /jobs/<jid>, which holds the same value.
//
// # One dry run for the units on the same minions
//
// A minion runs one state run at a time: with queue=True a second one waits for the first, in
// test mode too. So the units of a plan (or of a drift check) whose targets resolved to the
// same minions are dry-run in one job (batch.go), state.apply of all their sls at once (mods
// separated by commas), which the minion compiles and runs as one state run; units on other
// minions still go out side by side. Applies are never combined: they stay one job per unit,
// in order.
//
// Salt has one pillar per state run (the pillar keyword argument overrides it for the whole
// job) and no pillar per sls file, while the units read the same keys (lv_name, mount_point)
// with different values. So the combined job's pillar is {"eos_batch": {"<sls base>":
// <the unit's pillar>, ...}}, and each unit runs a variant of its state, written beside it
// under its own content-addressed name, whose first line (no newline, so the text's lines
// keep their numbers) rebinds two template variables of that file's render alone: pillar, to
// the unit's part (salt['pillar.get']('eos_batch:<base>', {})), and salt, to a dict of just the
// execution functions the text calls, with 'pillar.get' that part's get. Salt renders each sls
// file with its own template context (salt/renderers/jinja.py), so a variable set at the top of
// one file is not seen by another, and the salt object itself is not changed (in Salt 3006 it
// can be the minion's shared loader). A unit combines only when every read of its pillar is one
// this rebinding keeps to its own (pillar['key'], pillar.get(...), salt['pillar.get']('key',
// default), and without a default only for a key its pillar has: a missing one reads "" in
// Salt and None from a dict); a unit whose text reads the pillar any other way (salt.pillar.get,
// pillar.items(), a nested key "a:b", config.get of a key its pillar has), renders other
// templates (template: on a state, include, import, a macro) or names another renderer is dry-run in a
// job of its own, as before.
//
// Each state of the combined return carries its sls (__sls__), which gives it back to its
// unit; within a unit the states keep their run order, so each unit's changes, failures,
// disruption marks, masked diffs and restart triggers are those of a job of its own, and the
// plan and its hash are the same byte for byte. Two sls files that declare the same state id
// cannot share a run: Salt refuses it ("Detected conflicting IDs, SLS IDs need to be globally
// unique"), and so does a render error of any one file; then the layer logs why and dry-runs
// the units in jobs of their own, which report each unit's cause as they always did. A minion
// that does not return fails the first unit, as it would have in a job of its own.
// (state.apply's concurrent=True would let the jobs run side by side instead, but Salt warns
// against it for speed, and each job would still compile its own pillar and modules.)
//
// # Progress while an apply runs
//
// Before starting each apply job the layer opens salt-api's event stream, GET /events
// (Server-Sent Events, text/event-stream; the session token goes in the X-Auth-Token header,
// never in the URL, although rest_cherrypy also takes ?token=), and waits for its first bytes:
// rest_cherrypy subscribes to the master's bus before writing "retry: 400", so no event of the
// job can be missed. Each event is a "data: {"tag": ..., "data": {...}}" line; only those of the
// job's jid are used. The apply asks the minions for state events with the state_events=True
// keyword argument of state.apply (Salt 3006 and later, salt PR #63316; older minions ignore
// it, and then only state_events: True in the master's configuration, which applies to every
// state run, makes them fire). A minion then fires salt/job/<jid>/prog/<minion>/<run_num> as
// each state finishes, whose data holds the state's return without its module and function
// ({"ret": {"__id__", "name", "result", "changes", "comment", "__run_num__", ...}, "len": N}):
// each becomes a progress event right away, named "<minion>: <id> (<name>)", counted per minion
// and state against the plan's total, with "changed", "unchanged" or "failed: <comment>". A
// minion's salt/job/<jid>/ret/<minion> event makes the layer read /jobs/<jid> at once; the
// return taken from there reports the states the stream did not (named "<minion>:
// <module>.<function> <id> (<name>)", as without a stream), each state once, and alone decides
// whether the unit failed. While the stream is up /jobs is otherwise read only every 30s, in
// case a return event was lost.
//
// # Dry runs take their returns from the stream
//
// A look at /jobs costs salt-api a runner: 0.7-1.1 s on the test master, and it answers a
// running job only once the job ends, where a dry run's job takes about 0.5 s. So a dry run
// (plan, re-plan, drift check) opens the stream too, and takes each minion's return from its
// return event, which carries the value /jobs gives. At most 16 such streams are open at once
// (each holds one of salt-api's threads); past that a dry run polls /jobs. While one is up,
// /jobs is still looked at every 5 s in case a return event was lost. Returns are ordered by
// minion, so the plan and its hash do not depend on which minion finished first.
//
// # Whose word a return is
//
// /jobs holds what each minion returned over its own authenticated channel. The event bus
// does not: any minion may fire events with any tag (event.fire_master), including another
// minion's return tag. So an apply's outcome always comes from /jobs, and by default so does
// a dry run's: what the approver sees is what each minion returned itself. With
// Config.DryRunsFromEvents (salt { dry_runs_from_jobs = false }) a dry run takes its returns
// from their events, about a second sooner, but only in the master's own shape for the minion
// and job the tag names (cmd _return, its id and jid): a minion firing through
// event.fire_master cannot pass that in the single-tag form, which carries its own id, but can
// in the multi-event form (the same exposure the salt command line has; real_forged_test.go
// shows both on a real master), so that is for fleets whose minions are all trusted as much
// as the master.
//
// Without a stream (Config.DisableEvents, a refused or failing /events, one answering other
// than text/event-stream, or nothing within 10s, as behind a buffering proxy) the job is
// followed by polling /jobs alone, and progress arrives per minion as each returns. A stream
// that ends or breaks mid-job (newer salt-api ends it when the token expires) is not
// reopened, since Salt does not replay missed events: the rest of that job is followed by
// polling, which finishes it with the right result. A 401 on /events logs in again once. The layer's timeout
// and the context bound the run in every case.
//
// # When salt-api or the master restarts
//
// A server that restarts is not a failed run. Every request that is safe to repeat (the state
// file write, which is content-addressed; test.ping; show_low_sls; key.list_all; GET /jobs) is
// retried with executor.Retry and executor.DefaultBackoff while it fails transiently: a refused
// or reset connection, a network timeout, a 502, 503 or 504 (salt-api answers 503 while its
// master is down). A 401 makes the client log in again, as a restarted salt-api may have
// forgotten its tokens. An apply retries within the layer's timeout and its context's
// deadline, a plan or drift check for 30 s at most, so that a wrong URL fails a preview soon.
//
// A job is submitted once. The layer chooses its jid (local_async takes a jid argument, which
// the master uses as it is) and sends the submission again only when that is certain to be
// harmless: the connection was refused, so nothing was sent, or salt-api answered 401. When
// the answer is lost after the request may have been sent (a reset, a timeout, a 502-504), the
// layer looks for the job under its jid in /jobs/<jid> until salt-api answers: found, it is
// followed; unknown to the master ("no job with this jid"), it is sent again under the same
// jid. Should the master still publish the first one late, a minion ignores a jid it already
// started (its jid_queue), so the states run once. A job being followed is never submitted
// again: /jobs/<jid> is looked at again until salt-api answers. The event stream, which Salt
// does not replay, is not reopened; polling finishes the job.
//
// The run's progress says why it waits, at most every 5 s, in an event without a resource
// that keeps the last counts: "salt-api not answering for 40 s, retrying" ("the Salt master"
// when salt-api answers 503 for it), then "salt-api answering again" once it does, and, when a
// job shows no state and no return for 30 s, "waiting for eos-minion to return job J (2 min)".
//
// A stopped master is seen differently: salt-api keeps the /events stream open but silent,
// and holds each request until the master is back (its ZeroMQ request waits), answering 503
// only after minutes, or sooner with 401 and then 503 to a new login. So the "waiting for"
// notice comes before each look at /jobs, a look at /jobs that takes 10 s or more counts as
// the master having been away, and a request held past HTTPTimeout is retried. Measured with
// salt-master stopped 3 s into an apply and started again as soon as the progress said it
// waited (about 10 runs): the look at /jobs was held 9 to 35 s; the minion's return mostly came
// through after the restart, and was lost in about one run in four, the later states' events
// with it.
//
// A minion that returns while the master is away retries a few times, then gives up: its
// return is lost, and an outage as short as the master's restart does not always show as one
// through salt-api. So a minion that has shown nothing for 30 s is asked whether it still runs
// the job (saltutil.find_job); one that says twice, 30 s apart, that it does not, while /jobs
// (looked at in full once more) has no return from it, ends the wait: its end is unknown.
//
// When Eos cannot see how an apply ended, Apply returns an executor.UnknownError naming "the 3
// states of job J on eos-minion" and the check "salt-run jobs.lookup_jid J": salt-api or the
// master did not answer again before the deadline after the job was submitted (or answered
// only errors); or a minion's return was lost (as above); or a minion had not returned at the
// timeout although it was heard running the job (a state's event, or find_job) or salt-api or
// the master was away meanwhile. The runner marks the layer unknown and rolls nothing back:
// states nobody saw end are neither kept nor undone. A minion never heard from that does not
// return while salt-api answers throughout still fails the layer as unreachable, as before. A
// rollback that ends unknown says so in its error.
//
// # Targets
//
// Before each dry run (a plan or a drift check) the unit's targets are resolved with a
// synchronous test.ping (client local, bounded by Config.PingTimeout): a glob becomes the
// minions that answered, which the preview names and the plan's digest (so its hash) holds;
// the apply runs on exactly that list (tgt_type list). A matched minion that does not answer
// fails the plan before any state runs; one that matches the glob only at apply time is
// reported, not configured, since nobody approved it. The test job goes out only after the
// ping, also for a list of minions: a minion drops one of two jobs published to it at the same
// moment (saltstack/salt#63217; dryrun.go). The state file's write and the event stream's
// opening, each a round trip to salt-api that publishes nothing, go side by side.
//
// # Destroy
//
// Salt has no undo: a destroy's row names what the states manage, per minion (kept.go).
// With destroy --purge-data (Spec.PurgeData) the layer removes what of it lies under the
// minion's eos_data_dir, the service's directory there whole when it has one, with a state it
// writes itself; the plan lists each removal as a destroy that loses data (purge.go).
//
// # File diffs, and secrets
//
// A file.managed whose content would change returns its unified diff in test mode; the plan's
// and the drift's change carries it (executor.Change.Diff) masked, never as Salt returned it.
// Either side of the diff may hold a secret Eos never saw in plain text (a value from the
// master's own pillar, Vault or sdb, a salt:// file, whatever the service or a person wrote
// into the file), so masking cannot search for known values. It shows a line only when it can
// prove the line comes from what the approver sees anyway: every word (run of letters and
// digits) is a word of the unit's state text or pillar or of the change's own name (the file's
// path when it shows, the minion, the minion's eos_data_dir), every other character occurs there too, and no word names a secret
// (contains pass, pwd, secret, token, credential or private; is key or auth or ends in key; is
// a part of one of the unit's secret names). Any other line, added, removed or context, reads
// "<secret masked>" after its +, - or space, so the counts still read; hunk headers are kept
// when they hold only line numbers. A secret in any spelling (base64, hex, quoted, split over
// lines) is masked, since each piece of it would have to be a word of the blueprint; the price
// is that a value the spec no longer declares (the old port of an update, a hand edit) is
// masked too. diffmask.go has the rule and diffmask_test.go the spellings it is tested against.
// Diffs are kept to 400 lines and are not part of the plan's digest.
//
// A state's id and name are rendered text too ("{{ pillar['db_password'] }}.conf"), so the
// same rule decides whether they show (namemask.go), but for the words that mark a secret: a
// file's name is not its content ("/srv/x/tls.key" the text says shows). One that is not made
// of the state text, the pillar, the minion's name and its eos_data_dir reads "<secret
// masked>" (a path keeps the last segments that are: "<secret masked>/srv/grafana/grafana.ini")
// in the change's address, detail, forces and data, in what would fail, in the preview row and
// in the run's progress and output, and is not among the words a diff may show; Salt's comment
// is shown with those ids and names masked in it. The eos_data_dir is the minion's own
// configuration, which a dry run reads (config.get) once per minion, after the test.ping
// that resolves its targets (datadir.go); where it cannot be read, paths under it are masked
// as above. An apply's progress masks with what the re-plan before it read.
//
// # What was verified
//
// The tests run against a real Salt 3006.9 master, minion and salt-api that
// scripts/testenv/salt.sh starts (real_*_test.go): plan, apply with per-state progress from
// /events, a failing state and rollback, a stopped minion, an expired token, a wrong password,
// drift, two units dry-run in one job with the plan of a job per unit (and the fallback when
// their states share an id), a stream cut mid-apply, salt-api stopped mid-apply and started again (the job is
// followed to its end and ran once), and the master stopped mid-apply and started again (the
// apply ends applied or unknown, never failed, and the job ran once). The contract server (fake_test.go, fake_events_test.go)
// stays for what a real master cannot be made to do on cue (returns in a chosen order, a lost
// return event, buffering proxies, a submission's answer lost after the master took it, a
// salt-api that never comes back); it answers as the real one does where they were compared.
// Plans and drift checks (test=True) do not open the stream.
//
// state.template_str would avoid the file write, but Salt's template_str ignores both the
// "pillar" and the "test" keyword arguments (it builds its State without pillar_override and
// never reads test), so a plan made with it would really apply; it is not used.
//
// The salt-api user needs, in the master's external_auth: "state.apply" and "test.ping" on the
// targets, "state.show_low_sls" and "config.get" (a destroy names what it keeps, and
// destroy --purge-data removes what lies under the minion's eos_data_dir: purge.go), "@wheel"
// (file_roots.write, key.list_all) and "@jobs" (jobs.list_job); and "saltutil.find_job" to
// tell a lost return from a running job (without it the wait for a lost return lasts until the
// timeout). The event stream needs no permission beyond a valid token: rest_cherrypy's /events
// does not check eauth permissions, and shows the whole bus to any logged-in user.
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package salt
