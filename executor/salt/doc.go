// Package salt is the Salt layer of the executor: host configuration (storage, packages,
// system services) applied before Terraform and Nomad, through salt-api's REST interface
// (rest_cherrypy) with plain net/http.
//
// For each unit with a Salt part the layer writes the unit's state file into the master's
// file_roots with the wheel client (file_roots.write) under a content-addressed name,
// <StateDir>/<service>_<sha256 prefix>.sls, so what was planned is exactly what runs and no
// file sync is needed. It then runs state.apply of that state on the unit's targets with the
// compiled pillar passed as request data (kwarg "pillar"), never templated into the state text:
// with test=True to plan and to check drift, for real to apply. Jobs run asynchronously
// (client local_async) and are followed through /jobs/<jid> until every targeted minion has
// returned or the timeout passes; each state of a minion's return becomes a progress event, in
// Salt's execution order (__run_num__).
//
// state.template_str would avoid the file write, but Salt's template_str ignores both the
// "pillar" and the "test" keyword arguments (it builds its State without pillar_override and
// never reads test), so a plan made with it would really apply; it is not used.
//
// The salt-api user needs, in the master's external_auth: the states module on the targets
// ("state.apply"), "@wheel" (file_roots.write) and "@jobs" (jobs.list_job).
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package salt
