package render

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/render/rendertest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	goldenfile "github.com/eosbot/eos/internal/golden"
)

// answer is one short answer, named for the golden file.
type answer struct {
	name string
	doc  adapters.Doc
}

// checkAnswers compares the answers, each as plain text under its name, with testdata/NAME.golden.
func checkAnswers(t *testing.T, name string, answers []answer) {
	t.Helper()
	var b strings.Builder
	for _, a := range answers {
		b.WriteString("== " + a.name + "\n" + a.doc.Plain() + "\n")
	}
	goldenfile.Check(t, filepath.Join("testdata", name+".golden"), []byte(b.String()))
}

// The conversation's short answers say what they said when the engine wrote them itself:
// refusals, "nothing to do", acknowledgements and busy notices.
func TestConversationAnswersGolden(t *testing.T) {
	at := rendertest.At
	plan := func(id, verb, target string, created time.Time) *store.Plan {
		return &store.Plan{ID: id, Created: created, Plan: executor.Plan{Spec: executor.Spec{Verb: verb, Target: target, Env: "staging"}}}
	}
	checkAnswers(t, "answers", []answer{
		{"Failed", Failed("reading history", errors.New("bolt: database not open"))},
		{"NoSuchPlan", NoSuchPlan("7f3a9c21")},
		{"NoPlanNamed", NoPlanNamed("grafna")},
		{"NotRequester", NotRequester("carol", "production", []string{"bob", "group:sre"})},
		{"NotRequester anyone", NotRequester("carol", "production", nil)},
		{"ServiceBusy", Reply(ServiceBusy("grafana", "staging", "7f3a9c21", at))},
		{"NoRuns", NoRuns("grafana", "")},
		{"NoRunsInEnv", NoRuns("grafana", "staging")},
		{"OnTheRequest", OnTheRequest("bob", []string{"7f3a9c21"}, false)},
		{"OnTheRequest reject, two plans", OnTheRequest("bob", []string{"7f3a9c21", "0b1c2d3e"}, true)},
		{"NothingToCancel", NothingToCancel()},
		{"WhichToCancel", WhichToCancel([]*store.Plan{plan("b2", "update", "grafana", at.Add(time.Minute)), plan("a1", "create", "nextcloud", at)})},
		{"Cancelled", Cancelled("7f3a9c21", "alice")},
		{"NothingDeployed", NothingDeployed("", "")},
		{"NothingDeployed service", NothingDeployed("grafana", "staging")},
		{"WebOff", WebOff()},
		{"CannotWhisper", CannotWhisper("console")},
		{"WhisperFailed", WhisperFailed()},
		{"LinkSent", LinkSent("5 minutes")},
		{"TooBusyMessage", TooBusyMessage("alice", "512 requests and reactions waiting")},
		{"TooBusyReaction", TooBusyReaction("bob", "white_check_mark", "512 requests and reactions waiting")},
		{"TooBusyEdit", TooBusyEdit("alice", "512 requests and reactions waiting")},
		{"SecretInEdit", SecretInEdit()},
		{"RequestEdited cancelled", RequestEdited("alice", []string{"7f3a9c21", "0b1c2d3e"}, nil)},
		{"RequestEdited both", RequestEdited("alice", []string{"7f3a9c21"}, []string{"0b1c2d3e"})},
		{"CancelledBecause", CancelledBecause("7f3a9c21", "the request was deleted")},
		{"Unreadable", Unreadable(errors.New("unexpected end of input"))},
		{"NotAChange", NotAChange("status")},
		{"PlanningFailed", PlanningFailed(errors.New("terraform: provider not installed"))},
		{"SignInLink", SignInLink("https://eos.example/signin/TOKEN", "5 minutes", "8 hours")},
		{"Scanning", Scanning(3, 12)},
	})
}

// The short answers about drift, rollback, reconcile and adopt, and the triage reactions'.
func TestDriftAnswersGolden(t *testing.T) {
	until := rendertest.At.Add(7 * 24 * time.Hour)
	checkAnswers(t, "answers_drift", []answer{
		{"NothingDeclared adopt", NothingDeclared("grafana", "staging", "nothing to adopt", " @eos status")},
		{"NothingDeclared rollback", NothingDeclared("grafana", "staging", "nothing to roll back to", "")},
		{"CantAdopt", CantAdopt("grafana", "staging", errors.New("nomad: job not found."))},
		{"SaltOnlyDrift", SaltOnlyDrift("grafana", "staging", []string{"file_|-grafana_ini", "service_|-grafana"})},
		{"NothingToDrift", NothingToDrift()},
		{"RunIsCurrent", RunIsCurrent("7f3a9c21", "grafana", "staging")},
		{"RunDidNotApply", RunDidNotApply("7f3a9c21", "grafana", "staging")},
		{"RunValuesCurrent", RunValuesCurrent("7f3a9c21", "grafana", "staging")},
		{"NoEarlierState", NoEarlierState("grafana", "staging", "7f3a9c21")},
		{"NameAService", NameAService()},
		{"NotCheckedYet", NotCheckedYet("staging/grafana", "grafana")},
		{"DriftHistory", DriftHistory("staging/grafana", [][]string{{"Mon 23 Nov 14:02", "drifted", "Terraform: 1 change"}})},
		{"TooOld one", TooOld("eos", []string{"staging/grafana"}, 7)},
		{"TooOld several", TooOld("eos", []string{"staging/grafana", "production/nextcloud"}, 7)},
		{"NothingToSnooze", NothingToSnooze("grafana", "staging")},
		{"Snoozed", Snoozed("bob", until, "grafana", "staging")},
		{"SnoozeLifted", SnoozeLifted("carol", "grafana", "staging", "bob", until)},
		{"NothingSnoozed", NothingSnoozed()},
		{"SnoozedList", SnoozedList([][]string{{"grafana", "staging", "@bob", Day(until), "Terraform: 1 change"}})},
	})
}

// The short answers about votes, and about approved plans that do not run as approved.
func TestApprovalAnswersGolden(t *testing.T) {
	rules := []policy.Rule{{Name: "production", Approvals: 2}}
	bob := policy.Person{Platform: "mattermost", ID: "u2", Name: "bob", Matches: []string{"bob"}}
	verdict := policy.Judge(rules, []policy.Voter{{Vote: store.Vote{User: "bob", UserID: "u2", Platform: "mattermost"}, Person: bob}})
	code := Code{SHA: "ab12", Decisions: []rego.Decision{{Kind: rego.Deny, Msg: "no public buckets", Rule: "eos.storage.deny", Where: "storage.rego:4"}}}
	full := errors.New("write /var/lib/eos/work: no space left on device")
	checkAnswers(t, "answers_approval", []answer{
		{"Rejected", Rejected("7f3a9c21", "bob")},
		{"ApprovalCounted", ApprovalCounted("7f3a9c21", "bob", verdict)},
		{"Denied", Denied("7f3a9c21", code)},
		{"Unrecorded approve", Unrecorded("7f3a9c21", "bob", false, false, full)},
		{"Unrecorded reject removed", Unrecorded("7f3a9c21", "bob", true, true, full)},
		{"CantStop", Reply(CantStop("carol", "7f3a9c21", "alice", "@bob"))},
		{"CancelledBeforeRun", CancelledBeforeRun("7f3a9c21", "alice")},
		{"StoppingAlready", StoppingAlready("7f3a9c21", "bob")},
		{"Stopping", Stopping("7f3a9c21")},
		{"NotStarted", NotStarted("7f3a9c21", "could not start: vault: permission denied. Nothing changed, and your approval is not kept: once that is fixed, remove and add your ✅ again")},
		{"StartBusy", StartBusy("7f3a9c21", "staging/grafana", "0b1c2d3e")},
		{"ChangedSinceApproval", ChangedSinceApproval("7f3a9c21", "grafana", "staging")},
		{"Expired", Expired("7f3a9c21", rendertest.At)},
		{"PreviewOnly", Reply(PreviewOnly("7f3a9c21", "create", "grafana"))},
		{"ExpiredOnVote", Reply(ExpiredOnVote("7f3a9c21", rendertest.At, "create grafana"))},
		{"NotPendingOnVote", Reply(NotPendingOnVote("7f3a9c21", store.PlanRejected))},
		{"WouldFail", Reply(WouldFail("7f3a9c21", []string{"Terraform: quota exceeded", "Nomad: no node has 64 GB"}, "create grafana"))},
		{"AlreadyRan finished", Reply(AlreadyRan("7f3a9c21", &store.Run{ID: "7f3a9c21", State: store.RunDone, Started: rendertest.At, Finished: rendertest.At.Add(time.Minute)}))},
		{"AlreadyRan running", Reply(AlreadyRan("7f3a9c21", &store.Run{ID: "7f3a9c21", State: store.RunRunning, Started: rendertest.At}))},
		{"NotAllowed", Reply(NotAllowed("carol", "approve", "production", "approvers: @bob"))},
		{"NotPendingToCancel", Reply(NotPendingToCancel("7f3a9c21", store.PlanApproved))},
		{"CantCancel", Reply(CantCancel("carol", "7f3a9c21", "alice", "@bob"))},
		{"Stopped after a layer", Stopped(&store.Run{ID: "7f3a9c21", Target: "grafana", Env: "staging", Layers: []executor.LayerResult{
			{Layer: executor.Salt, Status: executor.ResultOK}, {Layer: executor.Terraform, Status: executor.ResultNotStarted}, {Layer: executor.Nomad, Status: executor.ResultNotStarted}}}, "bob")},
		{"Stopped before anything", Stopped(&store.Run{ID: "7f3a9c21", Target: "grafana", Env: "staging", Layers: []executor.LayerResult{
			{Layer: executor.Terraform, Status: executor.ResultHalted}}}, "bob")},
		{"UnstoppedNote", UnstoppedNote(Reply("Run 7f3a9c21 · done"), "bob")},
	})
}

// `status` says the same with its document made here as when the engine assembled it: nothing
// deployed; services, plans and runs; and what unfinished runs left, checked or not.
func TestStatusGolden(t *testing.T) {
	at := rendertest.At
	failed := &store.Run{ID: "0b1c2d3e", Verb: "create", Target: "grafana", State: store.RunFailed, Finished: at, Layers: []executor.LayerResult{
		{Layer: executor.Salt, Status: executor.ResultOK, Summary: "3 states"},
		{Layer: executor.Terraform, Status: executor.ResultFailed, Error: "quota exceeded", Rollback: "not rolled back (policy: none)"},
		{Layer: executor.Nomad, Status: executor.ResultNotStarted},
	}}
	unknown := &store.Run{ID: "9a8b7c6d", Verb: "update", Target: "nextcloud", State: store.RunFailed, Finished: at, Layers: []executor.LayerResult{
		{Layer: executor.Terraform, Status: executor.ResultUnknown, Check: "terraform plan"},
	}}
	pending := &store.Plan{ID: "7f3a9c21", Requester: adapters.User{Name: "alice"}, Expires: at.Add(time.Hour),
		Plan: executor.Plan{Spec: executor.Spec{Verb: "create", Target: "authentik", Env: "staging"}}}
	checkAnswers(t, "status", []answer{
		{"nothing", Status(StatusView{})},
		{"nothing of a service", Status(StatusView{Service: "grafana", Env: "staging"})},
		{"everything", Status(StatusView{
			Deployed: map[string][][]string{"staging": {{"grafana", "run 0a0b0c0d", "Nov 23 14:02 UTC", "port=3000"}}},
			Pending:  []*store.Plan{pending},
			Running:  []store.Lock{{Key: "staging/nextcloud", Holder: "1a2b3c4d", Since: at}},
		})},
		{"left", Status(StatusView{Service: "grafana", Env: "staging", Left: map[string]LeftRun{
			"staging/grafana": {Run: failed},
		}})},
		{"left unknown", Status(StatusView{Left: map[string]LeftRun{
			"staging/nextcloud":    {Run: unknown},
			"production/nextcloud": {Run: unknown, Check: &store.Entry{At: at.Add(time.Hour), Text: "drift check clean"}},
		}})},
	})
}

// What Eos says after the fact about approved plans and runs (a restart, a full disk, a policy
// changed under them, an unknown outcome found) says what the engine said when it wrote it.
func TestRecoveryAnswersGolden(t *testing.T) {
	at := rendertest.At
	layers := []executor.LayerResult{{Layer: executor.Salt, Status: executor.ResultOK}, {Layer: executor.Terraform, Status: executor.ResultRunning},
		{Layer: executor.Nomad, Status: executor.ResultNotStarted}}
	rules := []policy.Rule{{Name: "production", Approvals: 2}}
	bob := policy.Person{Platform: "mattermost", ID: "u2", Name: "bob", Matches: []string{"bob"}}
	verdict := policy.Judge(rules, []policy.Voter{{Vote: store.Vote{User: "bob", UserID: "u2", Platform: "mattermost"}, Person: bob}})
	code := Code{SHA: "ab12", Decisions: []rego.Decision{{Kind: rego.Deny, Msg: "no public buckets", Rule: "eos.storage.deny", Where: "storage.rego:4"}}}
	drift := executor.LayerDrift{Layer: executor.Terraform, Status: executor.DriftDrifted,
		Changes: []executor.Change{{Action: executor.Update, Address: "eoslab_server.main", Detail: `size "small" → "xlarge"`}}}
	checkAnswers(t, "answers_recovery", []answer{
		{"Interrupted", Interrupted("7f3a9c21", Reached(layers), "grafana", "staging")},
		{"Interrupted before anything", Interrupted("7f3a9c21", Reached(nil), "grafana", "staging")},
		{"ExpiredApproved", ExpiredApproved("7f3a9c21", "Eos stopped before it ran and it expired", at, "create grafana")},
		{"NoLongerSuffices", NoLongerSuffices("7f3a9c21", verdict, "one more approval from @dave")},
		{"NowSuffices", NowSuffices("7f3a9c21", verdict)},
		{"PreviewGone", PreviewGone("7f3a9c21", "create grafana in staging", "alice")},
		{"HaltedByPolicy", HaltedByPolicy("7f3a9c21", code, "create grafana")},
		{"HeldForSpace", HeldForSpace("7f3a9c21", "the disk of /var/lib/eos/work", 30*time.Second, at)},
		{"OutcomeDoc clean", OutcomeDoc(OutcomeFound("7f3a9c21", executor.LayerDrift{Layer: executor.Terraform, Status: executor.DriftClean}), "grafana")},
		{"OutcomeDoc skipped", OutcomeDoc(OutcomeFound("7f3a9c21", executor.LayerDrift{Layer: executor.Nomad, Status: executor.DriftSkipped, Reason: "not configured"}), "grafana")},
		{"OutcomeDoc drifted", OutcomeDoc(OutcomeFound("7f3a9c21", drift), "grafana")},
	})
}

// The refusals about environments, and the sentence added while a run holds the service.
func TestEnvironmentAnswersGolden(t *testing.T) {
	at := rendertest.At
	lock := store.Lock{Key: "staging/grafana", Holder: "7f3a9c21", Since: at}
	checkAnswers(t, "answers_envs", []answer{
		{"LeftOutEnv", Reply(LeftOutEnv("qa", []string{"grafana", "nextcloud"}, `environments = ["staging", "production", "qa"]`))},
		{"UnknownEnv", Reply(UnknownEnv("prod", "production", []string{"staging", "production"}, `environments = ["staging", "production", "prod"]`))},
		{"UnknownEnv no suggestion", Reply(UnknownEnv("x", "", []string{"staging"}, `environments = ["staging", "x"]`))},
		{"InFlight starting", Reply(InFlight(lock, nil, "grafana", "staging", ""))},
		{"InFlight creating", Reply(InFlight(lock, &store.Run{Verb: "create", Target: "grafana"}, "grafana", "staging", " in staging"))},
		{"InFlight with a dependency", Reply(InFlight(lock, &store.Run{Verb: "rollback", Target: "nextcloud"}, "authentik", "staging", ""))},
		{"InFlight operation", Reply(InFlight(lock, &store.Run{Verb: "backup", Target: "grafana"}, "grafana", "staging", ""))},
	})
}
