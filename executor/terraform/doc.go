// Package terraform is the Terraform layer of the executor: it turns a Spec's Terraform parts
// into one working directory per unit (WorkDir/<env>/<service>), plans and applies them with
// the terraform CLI through hashicorp/terraform-exec, parses plans and the machine-readable UI
// with hashicorp/terraform-json, reports progress as executor.Events, checks drift and rolls
// back.
//
// It owns the working directories, the generated CLI configuration (so the host's
// ~/.terraformrc and TF_* variables never leak into a run), the saved plan files (one per
// plan, so a preview never replaces a plan a run was approved on; see plans.go) and the init
// snapshots (WorkDir/.eos-init): terraform init runs only when what it reads changed, and a
// new unit of a module initialised before starts from a copy of that init. Variables
// reach Terraform only as a tfvars JSON file, never by pasting text into HCL.
//
// A plan that would create an object another unit's state already holds (the same type and
// name, see owners.go) lists it among the plan's Failures, naming the owner ("firewall
// proxy-grafana already exists (grafana in local)"), so it cannot be approved; and an apply
// that fails says each reason once (joinDiagnostics).
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package terraform
